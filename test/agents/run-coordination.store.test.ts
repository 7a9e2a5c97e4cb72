import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRunStore, type RunStore } from '../../src/agents/index.js';
import { createRunWrites } from '../../src/agents/records/run-writes.js';
import type { RunEvent } from '../../src/bus/index.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/index.js';
import { describeEachDialect, type TestDatabase } from '../support/databases.js';
import { runRecord } from '../support/run-record.js';

const run = runRecord;

const step = (runId: string, index: number, tokens: [number, number], costUsd: number) => ({
  step_id: `step_${runId}_${index}`,
  run_id: runId,
  step_index: index,
  kind: 'model' as const,
  name: 'up/m',
  status: 'completed' as const,
  started_at: '2026-01-01T00:00:00.000Z',
  finished_at: '2026-01-01T00:00:01.000Z',
  latency_ms: 1000,
  input_tokens: tokens[0],
  output_tokens: tokens[1],
  cost_usd: costUsd,
  prompt_log: { tool_call_id: 'c', arguments: '{}' },
});

await describeEachDialect('run control and counts in the store', (dialect) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  let store: RunStore;
  beforeAll(async () => {
    testDb = await dialect.create();
    database = await createDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir });
    store = createRunStore(database.db);
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  it('persists control requests only for runs that have not ended, a pending cancel winning', async () => {
    await store.insertRun(run('run_ctl'));
    expect(await store.requestControl('run_ctl', 'pause')).toBe(true);
    await store.setActiveStatus('run_ctl', 'paused');
    expect((await store.controlStates(['run_ctl'])).get('run_ctl')).toEqual({
      status: 'paused',
      control_request: 'pause',
    });
    expect(await store.requestControl('run_ctl', 'cancel')).toBe(true);
    expect(await store.requestControl('run_ctl', 'resume')).toBe(false);
    await store.finishRun('run_ctl', {
      status: 'cancelled',
      finished_at: '2026-01-01T00:00:05.000Z',
      total_tokens: 0,
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
      steps: 0,
      output: '',
      error_code: 'cancelled',
      error_message: 'x',
    });
    await store.setActiveStatus('run_ctl', 'running');
    expect((await store.getRun('run_ctl'))?.status).toBe('cancelled');
    expect(await store.controlStates([])).toEqual(new Map());
  });

  it('keeps a finished run’s event log with its end', async () => {
    await store.insertRun(run('run_log'));
    const events = [
      {
        type: 'run-start',
        agentName: 'helper',
        model: 'up/m',
        source: 'chat',
        sessionId: null,
        runId: 'run_log',
        seq: 1,
        at: '2026-01-01T00:00:00.000Z',
      },
      {
        type: 'run-end',
        output: 'hé ✓',
        totalTokens: 3,
        costUsd: 0,
        runId: 'run_log',
        seq: 2,
        at: '2026-01-01T00:00:01.000Z',
      },
    ] as RunEvent[];
    expect(await store.getEventLog('run_log')).toBeUndefined();
    await store.finishRun(
      'run_log',
      {
        status: 'completed',
        finished_at: '2026-01-01T00:00:01.000Z',
        total_tokens: 3,
        input_tokens: 2,
        output_tokens: 1,
        cost_usd: 0,
        steps: 1,
        output: 'hé ✓',
        error_code: null,
        error_message: null,
      },
      events,
    );
    expect(await store.getEventLog('run_log')).toEqual(events);
  });

  it('interrupts orphans, summing their recorded steps, and only stale ones when asked', async () => {
    await store.insertRun(run('run_old', { agent_name: 'orphans', started_at: '2026-01-01T00:00:00.000Z' }));
    await store.insertRun(
      run('run_new', { agent_name: 'orphans', status: 'paused', started_at: '2026-01-01T00:00:00.000Z' }),
    );
    await store.insertStep(step('run_old', 0, [10, 5], 0.5));
    await store.insertStep(step('run_old', 1, [20, 7], 0.25));
    await store.touch(['run_new'], '2026-01-01T00:10:00.000Z');

    expect(
      await store.interruptOrphans({ now: '2026-01-01T00:11:00.000Z', staleBefore: '2026-01-01T00:05:00.000Z' }),
    ).toHaveLength(1);
    expect(await store.getRun('run_old')).toMatchObject({
      status: 'interrupted',
      finished_at: '2026-01-01T00:11:00.000Z',
      error_code: 'interrupted',
      steps: 2,
      input_tokens: 30,
      output_tokens: 12,
      total_tokens: 42,
      cost_usd: 0.75,
    });
    expect((await store.getRun('run_new'))?.status).toBe('paused');
    expect((await store.countByAgent()).get('orphans')).toEqual({ total: 2, active: 1 });

    expect((await store.interruptOrphans({ now: '2026-01-01T00:12:00.000Z' })).length).toBeGreaterThanOrEqual(1);
    expect(await store.getRun('run_new')).toMatchObject({
      status: 'interrupted',
      steps: 0,
      total_tokens: 0,
      cost_usd: 0,
    });
    expect(await store.countActive()).toBe(0);
  });
  it('refuses the end of an owner whose run was taken over: the new owner’s outcome stays', async () => {
    const resume = {
      messages: [{ role: 'user' as const, content: 'hi' }],
      temperature: 1,
      max_tokens: null,
      client_tools: [],
      context: [],
      session_pending: null,
    };
    const end = (output: string, status: 'completed' | 'failed') => ({
      status,
      finished_at: '2026-01-01T00:20:00.000Z',
      total_tokens: 0,
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: 0,
      steps: 1,
      output,
      error_code: status === 'failed' ? 'upstream_error' : null,
      error_message: status === 'failed' ? 'x' : null,
    });
    const logOf = (output: string) =>
      [{ type: 'run-end', output, totalTokens: 0, costUsd: 0, runId: 'run_stall', seq: 1, at: 'x' }] as RunEvent[];
    // The first owner: a new run, attempt 1. It stalls (GC, SIGSTOP) past its lease.
    const stalled = createRunWrites(store, 'run_stall');
    stalled.insert(run('run_stall', { started_at: '2026-01-01T00:15:00.000Z' }), resume);
    await stalled.inserted;
    const [claimed] = await store.claimOrphans({
      now: '2026-01-01T00:19:00.000Z',
      staleBefore: '2026-01-01T00:18:00.000Z',
    });
    expect(claimed.run).toMatchObject({ run_id: 'run_stall', attempts: 2 });
    const owner = createRunWrites(store, 'run_stall', { stored: true, attempt: claimed.run.attempts });

    // Woken while the new owner still runs: its end is refused and the run goes on.
    await expect(stalled.finish(end('stale', 'failed'), logOf('stale'))).rejects.toThrow(/taken over/);
    expect(await store.getRun('run_stall')).toMatchObject({ status: 'running', output: null });

    await owner.finish(end('fresh', 'completed'), logOf('fresh'));
    // Woken after the new owner finished: refused too, the new owner's end and log are kept.
    await expect(stalled.finish(end('stale', 'failed'), logOf('stale'))).rejects.toThrow(/taken over/);
    expect(await store.getRun('run_stall')).toMatchObject({ status: 'completed', output: 'fresh', attempts: 2 });
    expect(await store.getEventLog('run_stall')).toEqual(logOf('fresh'));
  });
});
