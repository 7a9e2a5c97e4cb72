import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createAnalyticsQueryStore,
  createAnalyticsService,
  createAnalyticsWriteStore,
  createUsageRecorder,
  type AnalyticsService,
} from '../../src/analytics/index.js';
import type { DatabaseHandle } from '../../src/db/index.js';
import { describeEachDialect, type TestDatabase } from '../support/databases.js';
import { openAnalyticsDatabase, usage } from './analytics-fixtures.js';

// Mission steps are counted under `@autopilot`; the mission and step are columns of their own (issue #38).
const step = (mission: string, node: string, tokens: number, created_at: string) =>
  usage({
    agent_name: '@autopilot',
    source: 'autopilot',
    mission_id: mission,
    mission_step: node,
    input_tokens: tokens,
    output_tokens: 0,
    created_at,
  });

await describeEachDialect('analytics by mission', (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let analytics: AnalyticsService;

  beforeAll(async () => {
    database = await dialect.create();
    handle = await openAnalyticsDatabase(database);
    const recorder = createUsageRecorder({ store: createAnalyticsWriteStore(handle.db) });
    await Promise.all([
      recorder.record(step('mis_a', 'gather', 100, '2026-03-01T10:00:00.000Z')),
      recorder.record(step('mis_a', 'summarise', 20, '2026-03-02T10:00:00.000Z')),
      recorder.record(step('mis_b', 'gather', 3, '2026-03-01T11:00:00.000Z')),
      recorder.record(
        usage({ agent_name: 'helper', input_tokens: 7, output_tokens: 0, created_at: '2026-03-01T12:00:00.000Z' }),
      ),
      recorder.recordRisk({
        run_id: 'run_1',
        agent_name: '@autopilot',
        mission_id: 'mis_a',
        mission_step: 'gather',
        type: 'pii',
        entity: 'email',
        action: 'redact',
      }),
      recorder.recordRisk({ run_id: 'run_2', agent_name: 'helper', type: 'pii', entity: 'email', action: 'redact' }),
    ]);
    await recorder.close();
    analytics = createAnalyticsService({ store: createAnalyticsQueryStore(handle.db) });
  });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  it('sums one mission, or one step of it, over whole days too (the daily totals have no mission)', async () => {
    const days = { since: '2026-03-01T00:00:00.000Z', until: '2026-03-03T00:00:00.000Z' };
    expect((await analytics.usage({ ...days })).by_agent).toEqual({ '@autopilot': 123, helper: 7 });
    expect(await analytics.usage({ ...days, missionId: 'mis_a' })).toMatchObject({
      total_tokens: 120,
      by_agent: { '@autopilot': 120 },
      record_count: 2,
    });
    expect((await analytics.usage({ missionId: 'mis_a', missionStep: 'gather' })).total_tokens).toBe(100);
    expect((await analytics.agents({ ...days, missionId: 'mis_b' })).map((agent) => agent.total_tokens)).toEqual([3]);
  });

  it('counts a mission step’s guardrail hits by mission', async () => {
    expect((await analytics.risks({})).pii_events).toBe(2);
    expect((await analytics.risks({ missionId: 'mis_a' })).pii_events).toBe(1);
    expect((await analytics.risks({ missionId: 'mis_b' })).pii_events).toBe(0);
  });
});
