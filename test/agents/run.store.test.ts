import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRunStore, type RunRecord, type RunStore } from '../../src/agents/index.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/index.js';
import { describeEachDialect, type TestDatabase } from '../support/databases.js';
import { runRecord } from '../support/run-record.js';

const run = runRecord;

await describeEachDialect('run store', (dialect) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  let store: RunStore;
  beforeAll(async () => {
    testDb = await dialect.create();
    database = await createDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir });
    store = createRunStore(database.db, database.writes);
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  it('writes a run at start, its steps, and its end', async () => {
    await store.insertRun(run('run_a', { token_id: 'tok_1', session_id: 'ses-1' }));
    expect(await store.getRun('run_a')).toEqual(run('run_a', { token_id: 'tok_1', session_id: 'ses-1' }));
    const log = { messages: [{ role: 'user', content: 'hi ✓' }], response: 'hello', tool_calls: [] };
    await store.insertStep({
      step_id: 'step_1',
      run_id: 'run_a',
      step_index: 0,
      kind: 'model',
      name: 'up/m',
      status: 'completed',
      started_at: '2026-01-01T00:00:00.000Z',
      finished_at: '2026-01-01T00:00:01.000Z',
      latency_ms: 1000,
      input_tokens: 12,
      output_tokens: 3,
      cost_usd: 0.00125,
      prompt_log: log as never,
    });
    await store.insertStep({
      step_id: 'step_2',
      run_id: 'run_a',
      step_index: 1,
      kind: 'tool',
      name: 'clock',
      status: 'failed',
      started_at: '2026-01-01T00:00:01.000Z',
      finished_at: '2026-01-01T00:00:01.500Z',
      latency_ms: 500,
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
      prompt_log: { tool_call_id: 'c1', arguments: '{}', error: { code: 'timeout', message: 'slow' } },
    });
    const end = {
      status: 'completed' as const,
      finished_at: '2026-01-01T00:00:02.000Z',
      total_tokens: 15,
      input_tokens: 12,
      output_tokens: 3,
      cost_usd: 0.00125,
      steps: 2,
      output: 'hello',
      error_code: null,
      error_message: null,
    };
    await store.finishRun('run_a', end);
    expect(await store.getRun('run_a')).toEqual({
      ...run('run_a', { token_id: 'tok_1', session_id: 'ses-1' }),
      ...end,
    });
    const steps = await store.listSteps('run_a');
    expect(steps.map((step) => step.step_id)).toEqual(['step_1', 'step_2']);
    expect(steps[0]).toMatchObject({ latency_ms: 1000, input_tokens: 12, cost_usd: 0.00125, prompt_log: log });
    expect(steps[1].prompt_log).toEqual({
      tool_call_id: 'c1',
      arguments: '{}',
      error: { code: 'timeout', message: 'slow' },
    });
    expect(await store.getRun('run_missing')).toBeUndefined();
  });

  it('lists newest first, filtered by agent and status, with paging', async () => {
    await store.insertRun(run('run_b', { agent_name: 'other', started_at: '2026-01-02T00:00:00.000Z' }));
    await store.insertRun(run('run_c', { status: 'failed', started_at: '2026-01-03T00:00:00.000Z' }));
    const ids = async (filter: Parameters<RunStore['listRuns']>[0]) =>
      (await store.listRuns(filter)).map((record) => record.run_id);
    expect(await ids({ limit: 50, offset: 0 })).toEqual(['run_c', 'run_b', 'run_a']);
    expect(await ids({ agentName: 'helper', limit: 50, offset: 0 })).toEqual(['run_c', 'run_a']);
    expect(await ids({ status: 'failed', limit: 50, offset: 0 })).toEqual(['run_c']);
    expect(await ids({ limit: 1, offset: 1 })).toEqual(['run_b']);
  });

  it('stores the event log with the run end, and replaces it when the end is written again', async () => {
    await store.insertRun(run('run_log'));
    const event = (seq: number, delta: string) => ({
      type: 'text-delta' as const,
      delta,
      runId: 'run_log',
      seq,
      at: '2026-01-01T00:00:00.000Z',
    });
    const end = {
      status: 'completed' as const,
      finished_at: '2026-01-01T00:00:02.000Z',
      total_tokens: 0,
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
      steps: 0,
      output: 'ab',
      error_code: null,
      error_message: null,
    };
    await store.finishRun('run_log', end, [event(1, 'a'), event(2, 'b')]);
    expect(await store.getEventLog('run_log')).toEqual([event(1, 'a'), event(2, 'b')]);
    await store.finishRun('run_log', { ...end, status: 'failed', error_code: 'x', error_message: 'y' }, [
      event(1, 'c'),
    ]);
    expect(await store.getEventLog('run_log')).toEqual([event(1, 'c')]);
    expect(await store.getRun('run_log')).toMatchObject({ status: 'failed', error_code: 'x', error_message: 'y' });
  });

  it('groups runs by UTC hour and day of their start, and filters by source and start time', async () => {
    const at = (time: string) => `2026-02-03T${time}Z`;
    await store.insertRun(run('ser_1', { started_at: at('09:05:00.000'), source: 'webhook', cost_usd: 0.25 }));
    await store.insertRun(run('ser_2', { started_at: at('09:59:59.999'), status: 'failed', cost_usd: 0.5 }));
    await store.insertRun(run('ser_3', { started_at: at('11:00:00.000'), source: 'webhook' }));
    await store.insertRun(run('ser_4', { started_at: '2026-02-04T00:30:00.000Z' }));
    await database.writes.flush();
    const window = { since: at('00:00:00.000'), until: '2026-02-05T00:00:00.000Z' };
    expect(await store.runSeries({ ...window, bucket: 'hour' })).toEqual([
      { start: at('09:00:00.000'), runs: 2, failed: 1, cost_usd: 0.75 },
      { start: at('11:00:00.000'), runs: 1, failed: 0, cost_usd: 0 },
      { start: '2026-02-04T00:00:00.000Z', runs: 1, failed: 0, cost_usd: 0 },
    ]);
    expect(await store.runSeries({ ...window, bucket: 'day' })).toEqual([
      { start: at('00:00:00.000'), runs: 3, failed: 1, cost_usd: 0.75 },
      { start: '2026-02-04T00:00:00.000Z', runs: 1, failed: 0, cost_usd: 0 },
    ]);
    const ids = (runs: RunRecord[]) => runs.map((item) => item.run_id);
    const page = { limit: 50, offset: 0 };
    expect(ids(await store.listRuns({ ...page, source: 'webhook' }))).toEqual(['ser_3', 'ser_1']);
    expect(ids(await store.listRuns({ ...page, since: at('09:59:59.999'), until: at('11:00:00.000') }))).toEqual([
      'ser_2',
    ]);
  });

  it('reads what the runs change feed follows: active runs, runs started since, and the named ones', async () => {
    await store.insertRun(run('chg_old', { started_at: '2020-01-01T00:00:00.000Z', status: 'completed' }));
    await store.insertRun(run('chg_named', { started_at: '2020-01-01T00:00:00.000Z', status: 'cancelled' }));
    await store.insertRun(run('chg_new', { started_at: '2030-01-01T00:00:00.000Z', status: 'completed' }));
    const found = await store.listChangedRuns({
      since: '2029-01-01T00:00:00.000Z',
      runIds: ['chg_named'],
      limit: 500,
    });
    const ids = found.map((item) => item.run_id);
    expect(ids).toEqual(expect.arrayContaining(['chg_new', 'chg_named']));
    expect(ids).not.toContain('chg_old');
    expect(
      found
        .filter((item) => item.run_id !== 'chg_new' && item.run_id !== 'chg_named')
        .every((item) => item.status === 'running' || item.status === 'paused'),
    ).toBe(true);
  });
});
