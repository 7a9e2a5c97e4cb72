import { expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/db/migrations/index.js';

/**
 * The names existing databases recorded in kysely_migration, in order. Kysely compares them with the keys of
 * MIGRATIONS at every start: a renamed or reordered key fails the start of every database migrated before.
 * Files may move between folders; these names may not change.
 */
const RELEASED = [
  '2026-11-22-001-foundation',
  '2026-11-22-002-runs',
  '2026-11-22-003-analytics',
  '2026-11-22-004-webhooks',
  '2026-11-22-005-run-control',
  '2026-11-22-006-a2a',
  '2026-11-22-007-autopilot',
  '2026-11-22-008-triggers',
  '2026-11-22-009-budgets',
  '2026-11-22-010-learning-loop',
  '2026-11-24-001-inbox',
  '2026-11-24-002-source-leases',
  '2026-11-24-003-ownership',
  '2026-11-24-004-autopilot',
  '2026-11-24-005-budget-ledger',
  '2026-11-24-101-a2a-token-restrictions',
  '2026-11-24-101-limits-token-rate-limits',
  '2026-11-24-101-otel-trace-id',
  '2026-11-24-101-runtime-resume',
  '2026-11-24-102-limits-curated-samples',
  '2026-11-24-103-mission-execution-lease',
  '2026-11-24-201-a2a-push',
  '2026-11-24-201-dashboard-login-codes',
  '2026-11-29-001-budget-settle-id',
];

it('keeps the name and place of every released migration; new ones come after them, in name order', () => {
  const names = Object.keys(MIGRATIONS);
  expect(names.slice(0, RELEASED.length)).toEqual(RELEASED);
  expect(names).toEqual([...names].sort());
});
