import type { Migration } from 'kysely';
import * as foundation from './2026-11-22/2026-11-22-001-foundation.js';
import * as runs from './2026-11-22/2026-11-22-002-runs.js';
import * as analytics from './2026-11-22/2026-11-22-003-analytics.js';
import * as webhooks from './2026-11-22/2026-11-22-004-webhooks.js';
import * as runControl from './2026-11-22/2026-11-22-005-run-control.js';
import * as a2a from './2026-11-22/2026-11-22-006-a2a.js';
import * as autopilot from './2026-11-22/2026-11-22-007-autopilot.js';
import * as triggers from './2026-11-22/2026-11-22-008-triggers.js';
import * as budgets from './2026-11-22/2026-11-22-009-budgets.js';
import * as learningLoop from './2026-11-22/2026-11-22-010-learning-loop.js';
import * as inbox from './2026-11-24/2026-11-24-001-inbox.js';
import * as sourceLeases from './2026-11-24/2026-11-24-002-source-leases.js';
import * as ownership from './2026-11-24/2026-11-24-003-ownership.js';
import * as autopilotPickers from './2026-11-24/2026-11-24-004-autopilot.js';
import * as budgetLedger from './2026-11-24/2026-11-24-005-budget-ledger.js';
import * as otelTraceId from './2026-11-24/2026-11-24-101-otel-trace-id.js';
import * as runtimeResume from './2026-11-24/2026-11-24-101-runtime-resume.js';
import * as tokenRateLimits from './2026-11-24/2026-11-24-101-limits-token-rate-limits.js';
import * as curatedSamples from './2026-11-24/2026-11-24-102-limits-curated-samples.js';
import * as missionExecutionLease from './2026-11-24/2026-11-24-103-mission-execution-lease.js';
import * as a2aTokenRestrictions from './2026-11-24/2026-11-24-101-a2a-token-restrictions.js';
import * as a2aPush from './2026-11-24/2026-11-24-201-a2a-push.js';
import * as dashboardLoginCodes from './2026-11-24/2026-11-24-201-dashboard-login-codes.js';
import * as budgetSettleId from './2026-11-29/2026-11-29-001-budget-settle-id.js';
import * as runTriggeredBy from './2026-11-29/2026-11-29-301-run-triggered-by.js';
import * as usageMission from './2026-11-29/2026-11-29-401-usage-mission.js';
import * as sessionRequested from './2026-11-29/2026-11-29-501-session-requested.js';
import * as endUser from './2026-11-29/2026-11-29-531-end-user.js';
import * as responses from './2026-11-29/2026-11-29-540-responses.js';

/**
 * Every migration in order. Names sort by date; a new one is appended, never edited once released. A file sits in
 * the folder of its date and is named after its key; the key is what kysely_migration records, never the path.
 */
export const MIGRATIONS: Record<string, Migration> = {
  '2026-11-22-001-foundation': foundation,
  '2026-11-22-002-runs': runs,
  '2026-11-22-003-analytics': analytics,
  '2026-11-22-004-webhooks': webhooks,
  '2026-11-22-005-run-control': runControl,
  '2026-11-22-006-a2a': a2a,
  '2026-11-22-007-autopilot': autopilot,
  '2026-11-22-008-triggers': triggers,
  '2026-11-22-009-budgets': budgets,
  '2026-11-22-010-learning-loop': learningLoop,
  '2026-11-24-001-inbox': inbox,
  '2026-11-24-002-source-leases': sourceLeases,
  '2026-11-24-003-ownership': ownership,
  '2026-11-24-004-autopilot': autopilotPickers,
  '2026-11-24-005-budget-ledger': budgetLedger,
  '2026-11-24-101-a2a-token-restrictions': a2aTokenRestrictions,
  '2026-11-24-101-limits-token-rate-limits': tokenRateLimits,
  '2026-11-24-101-otel-trace-id': otelTraceId,
  '2026-11-24-101-runtime-resume': runtimeResume,
  '2026-11-24-102-limits-curated-samples': curatedSamples,
  '2026-11-24-103-mission-execution-lease': missionExecutionLease,
  '2026-11-24-201-a2a-push': a2aPush,
  '2026-11-24-201-dashboard-login-codes': dashboardLoginCodes,
  '2026-11-29-001-budget-settle-id': budgetSettleId,
  '2026-11-29-301-run-triggered-by': runTriggeredBy,
  '2026-11-29-401-usage-mission': usageMission,
  '2026-11-29-501-session-requested': sessionRequested,
  '2026-11-29-531-end-user': endUser,
  '2026-11-29-540-responses': responses,
};
