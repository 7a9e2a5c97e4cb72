import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunEvent, RunEventBus } from '../../src/bus/index.js';
import { runRecord } from '../support/run-record.js';
import { agentConfig, createRunHarness, type RunHarness } from './run-harness.js';

/** Two run services on one database and one bus (an in-process stand-in for Redis): two replicas. */
describe('run control across processes', () => {
  let harness: RunHarness;
  afterEach(() => harness.close());

  const start = () =>
    harness.runs.start({ agentName: 'helper', messages: [{ role: 'user', content: 'x' }], source: 'chat' });

  function heldModel(harnessToScript: RunHarness): () => void {
    let open!: () => void;
    const wait = new Promise<void>((resolve) => (open = resolve));
    harnessToScript.models.script({
      deltas: ['a', 'b'],
      text: 'ab',
      beforeDelta: (index) => (index === 1 ? wait : undefined),
    });
    return open;
  }

  it('lets another process attach to, pause, resume and cancel a run', async () => {
    harness = await createRunHarness([agentConfig({ name: 'helper' })], {}, { multiProcess: true });
    const replica = harness.peer();
    harness.models.script({ hang: true });
    const run = await start();
    const events: RunEvent[] = [];
    const attached = (async () => {
      for await (const event of (await replica.attach(run.runId))!) events.push(event);
    })();
    await vi.waitFor(() => expect(harness.models.requests).toHaveLength(1));

    expect(await replica.control(run.runId, 'pause')).toEqual({ run_id: run.runId, status: 'paused' });
    expect(run.control.status).toBe('paused');
    await vi.waitFor(async () => expect((await replica.find(run.runId))?.run.status).toBe('paused'));
    await expect(replica.control(run.runId, 'pause')).rejects.toMatchObject({
      status: 409,
      details: { status: 'paused' },
    });
    expect(await replica.control(run.runId, 'resume')).toEqual({ run_id: run.runId, status: 'running' });
    expect(run.control.status).toBe('running');

    expect(await replica.control(run.runId, 'cancel')).toEqual({ run_id: run.runId, status: 'cancelled' });
    expect(await run.result).toMatchObject({ status: 'cancelled', error: { code: 'cancelled' } });
    await attached;
    expect(events.at(-1)).toMatchObject({ type: 'run-error', code: 'cancelled' });
    await expect(replica.control(run.runId, 'resume')).rejects.toMatchObject({
      status: 409,
      details: { status: 'cancelled' },
    });
    await expect(replica.control('run_unknown', 'cancel')).rejects.toMatchObject({ status: 404 });
  });

  it('applies commands whose message was lost: pause at the next checkpoint, resume from the heartbeat', async () => {
    harness = await createRunHarness(
      [agentConfig({ name: 'helper' })],
      {},
      { multiProcess: true, lease: { intervalMs: 20, staleMs: 60_000 } },
    );
    const deaf: RunEventBus = { ...harness.bus, sendControl: async () => undefined };
    const replica = harness.peer({ bus: deaf });
    const open = heldModel(harness);
    const run = await start();
    await vi.waitFor(() => expect(harness.models.requests).toHaveLength(1));

    await replica.control(run.runId, 'pause');
    expect(run.control.status).toBe('running');
    open();
    // The model call ends; the checkpoint before completion reads the persisted request and holds the run.
    await vi.waitFor(() => expect(run.control.status).toBe('paused'));
    expect((await harness.bus.history(run.runId)).some((event) => event.type === 'run-end')).toBe(false);

    await replica.control(run.runId, 'resume');
    expect(await run.result).toMatchObject({ status: 'completed', output: 'ab' });
  });

  it('cancels a run whose cancel message was lost at its next checkpoint', async () => {
    harness = await createRunHarness([agentConfig({ name: 'helper' })], {}, { multiProcess: true });
    const replica = harness.peer({ bus: { ...harness.bus, sendControl: async () => undefined } });
    const open = heldModel(harness);
    const run = await start();
    await vi.waitFor(() => expect(harness.models.requests).toHaveLength(1));
    await replica.control(run.runId, 'cancel');
    // A pending cancel wins over later commands.
    await expect(replica.control(run.runId, 'pause')).rejects.toMatchObject({
      status: 409,
      details: { status: 'cancelled' },
    });
    open();
    expect(await run.result).toMatchObject({ status: 'cancelled' });
  });

  it('marks as interrupted only the runs whose executor stopped beating', async () => {
    harness = await createRunHarness(
      [agentConfig({ name: 'helper' })],
      {},
      { multiProcess: true, lease: { intervalMs: 60_000, staleMs: 60_000 } },
    );
    const old = new Date(Date.now() - 120_000).toISOString();
    const model = 'up/test-model';
    await harness.runStore.insertRun(runRecord('run_orphan', { model, started_at: old }));
    await harness.runStore.insertRun(runRecord('run_alive', { model, started_at: new Date().toISOString() }));
    expect(await harness.peer().recoverInterrupted()).toBe(1);
    expect((await harness.runStore.getRun('run_orphan'))?.status).toBe('interrupted');
    expect((await harness.runStore.getRun('run_alive'))?.status).toBe('running');
  });
});
