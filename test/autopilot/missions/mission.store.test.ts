import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAutopilotInstanceStore } from '../../../src/autopilot/autopilot-instance.store.js';
import { createExecutionStore, type ExecutionStore } from '../../../src/autopilot/execution/execution.store.js';
import { createMissionStore, type MissionStore } from '../../../src/autopilot/missions/mission.store.js';
import type { ExecutionRecord, MissionRecord } from '../../../src/autopilot/missions/mission.types.js';
import { createDatabase, type DatabaseHandle } from '../../../src/db/index.js';
import { describeEachDialect, type TestDatabase } from '../../support/databases.js';

const AT = '2026-11-23T09:00:00.000Z';

const mission = (id: string, overrides: Partial<MissionRecord> = {}): MissionRecord => ({
  mission_id: id,
  project_id: 'p',
  blueprint_id: 'b',
  blueprint_json: '{}',
  slots: { vendors: ['a'], limit: 2 },
  goal: null,
  title: 'T',
  status: 'scheduled',
  schedule: '0 9 * * 1',
  next_run_at: AT,
  budget_usd: 0.5,
  created_at: AT,
  updated_at: AT,
  approved_at: AT,
  traceparent: null,
  policy: {
    timezone: null,
    overlap: 'skip',
    catchup_window_seconds: null,
    pause_after_failures: null,
    jitter_seconds: 0,
  },
  consecutive_failures: 0,
  ...overrides,
});

const execution = (id: string, missionId: string, scheduledFor: string | null): Omit<ExecutionRecord, 'attempt'> => ({
  execution_id: id,
  mission_id: missionId,
  project_id: 'p',
  blueprint_id: 'b',
  trigger: 'schedule',
  scheduled_for: scheduledFor,
  status: 'running',
  started_at: AT,
  finished_at: null,
  duration_ms: null,
  cost_usd: 0,
  error_code: null,
  error_message: null,
  failure_class: null,
});

await describeEachDialect('autopilot stores', (dialect) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  let missions: MissionStore;
  let executions: ExecutionStore;
  beforeAll(async () => {
    testDb = await dialect.create();
    database = await createDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir });
    missions = createMissionStore(database.db);
    executions = createExecutionStore(database.db);
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  it('round-trips a mission and scopes reads by project', async () => {
    await missions.insert(mission('mis_a'));
    expect(await missions.get('p', 'mis_a')).toEqual(mission('mis_a'));
    expect(await missions.get('other', 'mis_a')).toBeUndefined();
    expect((await missions.list('p')).map((m) => m.mission_id)).toEqual(['mis_a']);
  });

  it('claims a tick exactly once under concurrent claims', async () => {
    await missions.insert(mission('mis_b'));
    const claims = await Promise.all(
      Array.from({ length: 10 }, () => missions.claimTick('mis_b', AT, '2026-11-30T09:00:00.000Z', AT)),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await missions.getById('mis_b')).toMatchObject({
      status: 'running',
      next_run_at: '2026-11-30T09:00:00.000Z',
    });
  });

  it('moves state only from the allowed states', async () => {
    await missions.insert(mission('mis_c', { status: 'completed' }));
    expect(await missions.transition('mis_c', ['draft', 'scheduled'], 'cancelled', AT)).toBe(false);
    expect(await missions.transition('mis_c', ['completed'], 'failed', AT, { next_run_at: null })).toBe(true);
    expect((await missions.listDue('2030-01-01T00:00:00.000Z')).map((m) => m.mission_id)).toEqual(['mis_a']);
  });

  it('numbers executions per mission and refuses a second execution of one tick', async () => {
    expect(await executions.insert(execution('job_1', 'mis_a', AT))).toBe(true);
    expect(await executions.insert(execution('job_2', 'mis_a', AT))).toBe(false);
    expect(await executions.insert(execution('job_3', 'mis_a', null))).toBe(true);
    expect(await executions.insert(execution('job_4', 'mis_a', null))).toBe(true);
    expect((await executions.listForMission('mis_a', 10)).map((e) => [e.execution_id, e.attempt])).toEqual([
      ['job_4', 3],
      ['job_3', 2],
      ['job_1', 1],
    ]);
    await executions.insertStep({
      execution_id: 'job_1',
      step_index: 0,
      node_id: 'n',
      run_id: null,
      status: 'completed',
      output: 'out',
      messages: [{ role: 'user', content: 'hi' }],
      telemetry: { cost_usd: 0.25, input_tokens: 3, output_tokens: 4, model_used: 'up/m', latency_ms: 12 },
      error: null,
      started_at: AT,
      finished_at: AT,
    });
    expect((await executions.listSteps('job_1'))[0]).toMatchObject({
      telemetry: { cost_usd: 0.25, input_tokens: 3 },
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect((await executions.interruptRunning(AT)).sort()).toEqual(['mis_a', 'mis_a', 'mis_a']);
  });

  it('creates the instance row once and keeps it', async () => {
    const instances = createAutopilotInstanceStore(database.db);
    const first = await instances.ensure('inst_1', AT);
    const second = await instances.ensure('inst_2', AT);
    expect(second.instanceId).toBe(first.instanceId);
    await instances.setSecret('ab'.repeat(32), 'http://svc', AT);
    await instances.setQuota({ used: 1, limit: 2 }, AT);
    expect(await instances.get()).toMatchObject({
      enabled: false,
      tier: 'anonymous',
      secret: 'ab'.repeat(32),
      quota: { used: 1, limit: 2 },
    });
  });
});
