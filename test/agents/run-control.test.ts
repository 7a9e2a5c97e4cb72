import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunHandle } from '../../src/agents/index.js';
import type { RunEvent } from '../../src/bus/index.js';
import { toolCall } from './fakes.js';
import { agentConfig, createRunHarness, type RunHarness } from './run-harness.js';

/** A promise the test resolves when it wants the fake model to go on. */
function gate(): { wait: Promise<void>; open(): void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

/** Collects a run's events as a client would, in the background. */
function watch(run: RunHandle): { events: RunEvent[]; done: Promise<void> } {
  const events: RunEvent[] = [];
  const done = (async () => {
    for await (const event of run) events.push(event);
  })();
  return { events, done };
}

const deltas = (events: RunEvent[]) => events.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : []));

describe('run control', () => {
  let harness: RunHarness;
  afterEach(() => harness.close());

  it('holds the events of an in-flight model call while paused and publishes them on resume', async () => {
    harness = await createRunHarness([agentConfig({ name: 'helper' })]);
    const model = gate();
    harness.models.script({
      deltas: ['one ', 'two ', 'three'],
      text: 'one two three',
      beforeDelta: (index) => (index === 1 ? model.wait : undefined),
    });
    const run = await harness.runs.start({
      agentName: 'helper',
      messages: [{ role: 'user', content: 'count' }],
      source: 'chat',
    });
    const client = watch(run);
    await vi.waitFor(() => expect(deltas(client.events)).toEqual(['one ']));

    expect(await harness.runs.control(run.runId, 'pause')).toEqual({ run_id: run.runId, status: 'paused' });
    expect((await harness.runs.find(run.runId))?.run.status).toBe('paused');
    model.open();
    // The model call finishes (its step is written) but the run waits at its next checkpoint.
    await vi.waitFor(async () => expect(await harness.runStore.listSteps(run.runId)).toHaveLength(1));
    expect(deltas(await harness.bus.history(run.runId))).toEqual(['one ']);
    expect(deltas(client.events)).toEqual(['one ']);
    await expect(harness.runs.control(run.runId, 'pause')).rejects.toMatchObject({
      status: 409,
      code: 'invalid_run_state',
      details: { status: 'paused' },
    });

    expect(await harness.runs.control(run.runId, 'resume')).toEqual({ run_id: run.runId, status: 'running' });
    expect(await run.result).toMatchObject({ status: 'completed', output: 'one two three' });
    await client.done;
    expect(deltas(client.events)).toEqual(['one ', 'two ', 'three']);
    expect(client.events.map((event) => event.seq)).toEqual(client.events.map((_, index) => index + 1));
    expect((await harness.runs.find(run.runId))?.run.status).toBe('completed');
  });

  it('starts no tool call while paused', async () => {
    harness = await createRunHarness([agentConfig({ name: 'helper', tools: ['clock'] })], { clock: () => 'noon' });
    const model = gate();
    harness.models.script(
      { toolCalls: [toolCall('clock')], deltas: ['checking'], text: 'checking', beforeDelta: () => model.wait },
      { text: 'It is noon.' },
    );
    const run = await harness.runs.start({
      agentName: 'helper',
      messages: [{ role: 'user', content: 'time?' }],
      source: 'chat',
    });
    await vi.waitFor(() => expect(harness.models.requests).toHaveLength(1));
    await harness.runs.control(run.runId, 'pause');
    model.open();
    await vi.waitFor(async () => expect(await harness.runStore.listSteps(run.runId)).toHaveLength(1));
    expect(harness.tools.calls).toHaveLength(0);
    await harness.runs.control(run.runId, 'resume');
    expect(await run.result).toMatchObject({ status: 'completed', output: 'checkingIt is noon.' });
    expect(harness.tools.calls).toHaveLength(1);
  });

  it('cancels a paused run at once: held events first, then run-error cancelled', async () => {
    harness = await createRunHarness([agentConfig({ name: 'helper' })]);
    const model = gate();
    harness.models.script({
      deltas: ['a', 'b'],
      text: 'ab',
      beforeDelta: (index) => (index === 1 ? model.wait : undefined),
    });
    const run = await harness.runs.start({
      agentName: 'helper',
      messages: [{ role: 'user', content: 'x' }],
      source: 'chat',
    });
    const client = watch(run);
    await vi.waitFor(() => expect(deltas(client.events)).toEqual(['a']));
    await harness.runs.control(run.runId, 'pause');
    model.open();
    await vi.waitFor(async () => expect(await harness.runStore.listSteps(run.runId)).toHaveLength(1));

    expect(await harness.runs.control(run.runId, 'cancel')).toEqual({ run_id: run.runId, status: 'cancelled' });
    expect(await run.result).toMatchObject({ status: 'cancelled', error: { code: 'cancelled' } });
    await client.done;
    expect(client.events.slice(-2)).toMatchObject([
      { type: 'text-delta', delta: 'b' },
      { type: 'run-error', code: 'cancelled' },
    ]);
    expect((await harness.runs.find(run.runId))?.run).toMatchObject({ status: 'cancelled', error_code: 'cancelled' });
    await expect(harness.runs.control(run.runId, 'cancel')).rejects.toMatchObject({
      status: 409,
      details: { status: 'cancelled' },
    });
  });

  it('aborts the in-flight model call on cancel', async () => {
    harness = await createRunHarness([agentConfig({ name: 'helper' })]);
    harness.models.script({ hang: true });
    const run = await harness.runs.start({
      agentName: 'helper',
      messages: [{ role: 'user', content: 'x' }],
      source: 'chat',
    });
    await vi.waitFor(() => expect(harness.models.requests).toHaveLength(1));
    await harness.runs.control(run.runId, 'cancel');
    expect(await run.result).toMatchObject({ status: 'cancelled' });
    expect(harness.models.requests[0].signal?.aborted).toBe(true);
  });

  it('refuses commands the state does not allow (409 with the status) and unknown runs (404)', async () => {
    harness = await createRunHarness([agentConfig({ name: 'helper' })]);
    harness.models.script({ hang: true });
    const run = await harness.runs.start({
      agentName: 'helper',
      messages: [{ role: 'user', content: 'x' }],
      source: 'chat',
    });
    await expect(harness.runs.control(run.runId, 'resume')).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining('running'),
      details: { status: 'running' },
    });
    await expect(harness.runs.control('run_nope', 'pause')).rejects.toMatchObject({
      status: 404,
      code: 'run_not_found',
    });
    await harness.runs.control(run.runId, 'cancel');
    await run.result;
    for (const command of ['pause', 'resume', 'cancel'] as const) {
      await expect(harness.runs.control(run.runId, command)).rejects.toMatchObject({
        status: 409,
        details: { status: 'cancelled' },
      });
    }
    const done = await harness.runs.start({
      agentName: 'helper',
      messages: [{ role: 'user', content: 'y' }],
      source: 'chat',
    });
    await done.result;
    await expect(harness.runs.control(done.runId, 'pause')).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining('completed'),
    });
  });

  it('drain cancels paused runs without waiting for the deadline', async () => {
    harness = await createRunHarness([agentConfig({ name: 'helper' })]);
    harness.models.script({ hang: true });
    const run = await harness.runs.start({
      agentName: 'helper',
      messages: [{ role: 'user', content: 'x' }],
      source: 'chat',
    });
    await harness.runs.control(run.runId, 'pause');
    await harness.runs.drain(60_000);
    expect(await run.result).toMatchObject({ status: 'cancelled', error: { code: 'shutdown' } });
  });
});
