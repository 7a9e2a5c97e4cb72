import { afterAll, beforeAll, expect, it } from 'vitest';
import { createExecutionStore } from '../../src/autopilot/execution/execution.store.js';
import { createMissionStore, type MissionStore } from '../../src/autopilot/missions/mission.store.js';
import type { MissionRecord } from '../../src/autopilot/missions/mission.types.js';
import { createPickerStore, type PickerStore } from '../../src/autopilot/routing/picker.store.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/index.js';
import { describeEachDialect, type TestDatabase } from '../support/databases.js';

const AT = '2026-11-23T09:00:00.000Z';
const LATER = '2026-11-23T10:00:00.000Z';

const mission = (id: string, overrides: Partial<MissionRecord> = {}): MissionRecord => ({
  mission_id: id,
  project_id: 'p',
  blueprint_id: 'b',
  blueprint_json: '{}',
  slots: { topic: 'x' },
  goal: null,
  title: 'T',
  status: 'scheduled',
  schedule: '0 * * * *',
  next_run_at: AT,
  budget_usd: null,
  created_at: AT,
  updated_at: AT,
  approved_at: AT,
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

await describeEachDialect('pickers, schedule policies and healing', (dialect) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  let missions: MissionStore;
  let pickers: PickerStore;
  beforeAll(async () => {
    testDb = await dialect.create();
    database = await createDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir });
    missions = createMissionStore(database.db);
    pickers = createPickerStore(database.db);
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  it('keeps one picker per project, the newest', async () => {
    expect(await pickers.get('p')).toBeUndefined();
    await pickers.save('p', {
      goal: 'first',
      candidates: [{ blueprint_json: '{}', score: 0.7, source: 'local' }],
      created_at: AT,
    });
    await pickers.save('p', {
      goal: 'second',
      candidates: [{ blueprint_json: '{"id":"b"}', score: 0.8, source: 'service' }],
      created_at: LATER,
    });
    expect(await pickers.get('p')).toEqual({
      goal: 'second',
      candidates: [{ blueprint_json: '{"id":"b"}', score: 0.8, source: 'service' }],
      created_at: LATER,
    });
  });

  it('round-trips a schedule policy, skips a tick once, and reopens only a failed or paused mission for healing', async () => {
    const policy = {
      timezone: 'Europe/Paris',
      overlap: 'buffer_one' as const,
      catchup_window_seconds: 600,
      pause_after_failures: 3,
      jitter_seconds: 30,
    };
    await missions.insert(mission('mis_p', { policy }));
    expect((await missions.getById('mis_p'))!.policy).toEqual(policy);
    expect(
      await missions.updatePolicy(
        'mis_p',
        ['draft', 'scheduled', 'paused'],
        { ...policy, overlap: 'skip' },
        LATER,
        LATER,
      ),
    ).toBe(true);
    expect(await missions.getById('mis_p')).toMatchObject({ policy: { overlap: 'skip' }, next_run_at: LATER });
    expect(await missions.skipTick('mis_p', AT, LATER, LATER)).toBe(false);
    expect(await missions.skipTick('mis_p', LATER, '2026-11-23T11:00:00.000Z', LATER)).toBe(true);
    expect(await missions.reopenForHealing('mis_p', { budget_usd: 2 }, LATER)).toBe(false);
    await missions.transition('mis_p', ['scheduled'], 'paused', LATER, { consecutive_failures: 3 });
    expect(await missions.reopenForHealing('mis_p', { budget_usd: 2, slots: { topic: 'y' } }, LATER)).toBe(true);
    expect(await missions.getById('mis_p')).toMatchObject({
      status: 'running',
      budget_usd: 2,
      slots: { topic: 'y' },
      consecutive_failures: 3,
    });
  });

  it('settles a running mission only once none of its executions is still running', async () => {
    const executions = createExecutionStore(database.db);
    await missions.insert(mission('mis_s', { status: 'running' }));
    const base = {
      mission_id: 'mis_s',
      project_id: 'p',
      blueprint_id: 'b',
      trigger: 'schedule' as const,
      started_at: AT,
      finished_at: null,
      duration_ms: null,
      cost_usd: 0,
      error_code: null,
      error_message: null,
      failure_class: null,
    };
    await executions.insert({ ...base, execution_id: 'job_1', scheduled_for: AT, status: 'running' });
    await executions.insert({ ...base, execution_id: 'job_2', scheduled_for: LATER, status: 'running' });
    const done = {
      status: 'completed' as const,
      finished_at: LATER,
      duration_ms: 1,
      cost_usd: 0,
      error_code: null,
      error_message: null,
      failure_class: null,
    };
    await executions.finish('job_2', done);
    expect(await missions.settle('mis_s', 'scheduled', LATER)).toBe(false);
    await executions.finish('job_1', done);
    expect(await missions.settle('mis_s', 'scheduled', LATER)).toBe(true);
    expect((await missions.getById('mis_s'))!.status).toBe('scheduled');
  });
});
