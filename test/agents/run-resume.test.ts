import { afterEach, describe, expect, it } from 'vitest';
import type { ModelPromptLog, StepRecord } from '../../src/agents/index.js';
import type { RunEvent } from '../../src/bus/index.js';
import { runRecord } from '../support/run-record.js';
import { agentConfig, createRunHarness, type RunHarness } from './run-harness.js';

const textOf = (events: RunEvent[]) => events.map((event) => (event.type === 'text-delta' ? event.delta : '')).join('');

// The process that wrote it stopped beating long ago (started_at is in 2026-01-01).
const record = (runId: string) => runRecord(runId, { agent_name: 'buyer', model: 'up/test-model' });

const input = {
  messages: [{ role: 'user' as const, content: 'buy one' }],
  temperature: 0.7,
  max_tokens: null,
  client_tools: [],
  context: [],
  session_pending: null,
};

/** The first model step as a dead process stored it: it asked for `charge` and `clock`, neither of which returned. */
function firstStep(runId: string): StepRecord {
  const log: ModelPromptLog = {
    messages: [{ role: 'user', content: 'buy one' }],
    tools: ['charge', 'clock'],
    temperature: 0.7,
    max_tokens: null,
    response: 'Buying. ',
    tool_calls: [
      { id: 'call_charge', name: 'charge', arguments: '{}' },
      { id: 'call_clock', name: 'clock', arguments: '{}' },
    ],
    finish_reason: 'tool_calls',
    input_tokens: 10,
    output_tokens: 5,
    usage_estimated: false,
    ttft_ms: 1,
  };
  return {
    step_id: 'step_1',
    run_id: runId,
    step_index: 0,
    kind: 'model',
    name: 'up/test-model',
    status: 'completed',
    started_at: '2026-01-01T00:00:00.000Z',
    finished_at: '2026-01-01T00:00:01.000Z',
    latency_ms: 1000,
    input_tokens: 10,
    output_tokens: 5,
    cost_usd: 0,
    prompt_log: log,
  };
}

describe('a run left unfinished by a dead process (runs.resume)', () => {
  let harness: RunHarness;
  afterEach(() => harness?.close());

  const setUp = async (resume: boolean) => {
    const charges: string[] = [];
    harness = await createRunHarness(
      [agentConfig({ name: 'buyer', tools: ['charge', 'clock'] })],
      {
        charge: () => {
          charges.push('charged');
          return 'charged $10';
        },
        clock: () => '12:00',
      },
      { idempotentTools: ['clock'], service: { resume } },
    );
    return charges;
  };

  it('continues after its last stored step: the model call is not repeated, the idempotent tool runs again, the other one is reported interrupted', async () => {
    const charges = await setUp(true);
    await harness.runStore.insertRun(record('run_orphan'), input);
    await harness.runStore.insertStep(firstStep('run_orphan'));

    expect(await harness.runs.recoverInterrupted()).toBe(0);
    const result = await harness.runs.live('run_orphan')!.result;

    expect(result).toMatchObject({ status: 'completed', output: 'Buying. echo: buy one', steps: 4 });
    // Its earlier events went with the dead process: its log starts again, whole, with the text said so far.
    const events = await harness.bus.history('run_orphan');
    expect(events[0]).toMatchObject({ type: 'run-start', seq: 1_000_001 });
    expect(textOf(events)).toBe('Buying. echo: buy one');
    // One model call in this process: the one after the tool results. The stored one is not made again.
    expect(harness.models.requests).toHaveLength(1);
    const seen = harness.models.requests[0].messages;
    expect(seen.slice(0, 2)).toEqual([
      { role: 'user', content: 'buy one' },
      expect.objectContaining({ role: 'assistant', content: 'Buying. ' }),
    ]);
    expect(seen).toContainEqual(
      expect.objectContaining({
        tool_call_id: 'call_charge',
        content: expect.stringMatching(/^Error: the call was interrupted/),
      }),
    );
    expect(seen).toContainEqual(expect.objectContaining({ tool_call_id: 'call_clock', content: '12:00' }));
    expect(charges).toEqual([]);
    expect(harness.tools.calls.map((call) => call.name)).toEqual(['clock']);

    const stored = await harness.runs.find('run_orphan');
    expect(stored?.run).toMatchObject({ status: 'completed', attempts: 2, resumed_from_step: 1, steps: 4 });
    expect(stored?.steps.map((step) => [step.step_index, step.kind, step.name, step.status])).toEqual([
      [0, 'model', 'up/test-model', 'completed'],
      [1, 'tool', 'charge', 'failed'],
      [2, 'tool', 'clock', 'completed'],
      [3, 'model', 'up/test-model', 'completed'],
    ]);
  });

  it('starts from its stored input when it died in its first model call, and its events go on above the lost ones', async () => {
    await setUp(true);
    await harness.runStore.insertRun(record('run_early'), input);

    await harness.runs.recoverInterrupted();
    const handle = harness.runs.live('run_early')!;
    const result = await handle.result;
    expect(result).toMatchObject({ status: 'completed', output: 'echo: buy one', steps: 1 });
    const events = await harness.bus.history('run_early');
    expect(events[0]).toMatchObject({ type: 'run-start', seq: 1_000_001 });
    expect(events.at(-1)).toMatchObject({ type: 'run-end', output: 'echo: buy one' });
  });

  it('publishes the text its dead owner held back (paused) before going on, numbered after its events', async () => {
    await setUp(true);
    await harness.runStore.insertRun(record('run_held'), input);
    await harness.runStore.insertStep(firstStep('run_held'));
    // The dead owner published its start and the first word, then held the rest of the step's text back.
    await harness.bus.publish(
      'run_held',
      { type: 'run-start', agentName: 'buyer', model: 'up/test-model', source: 'chat', sessionId: null },
      1,
    );
    await harness.bus.publish('run_held', { type: 'step-start', stepId: 'step_1', stepIndex: 0, kind: 'model' }, 2);
    await harness.bus.publish('run_held', { type: 'text-delta', delta: 'Buy' }, 3);

    await harness.runs.recoverInterrupted();
    const result = await harness.runs.live('run_held')!.result;
    expect(result).toMatchObject({ status: 'completed', output: 'Buying. echo: buy one' });
    const events = await harness.bus.history('run_held');
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect(events[3]).toMatchObject({ type: 'text-delta', delta: 'ing. ' });
    expect(textOf(events)).toBe('Buying. echo: buy one');
    // The stored log is the same whole one: a later attach replays the whole answer.
    expect(textOf((await harness.runStore.getEventLog('run_held')) ?? [])).toBe('Buying. echo: buy one');
  });

  it('is taken over by one process only when several sweep at once', async () => {
    await setUp(true);
    await harness.runStore.insertRun(record('run_contested'), input);
    const peer = harness.peer({ multiProcess: false });

    await Promise.all([harness.runs.recoverInterrupted(), peer.recoverInterrupted()]);
    const owners = [harness.runs, peer].filter((service) => service.live('run_contested'));
    expect(owners).toHaveLength(1);
    await owners[0].live('run_contested')!.result;
    expect(harness.models.requests).toHaveLength(1);
    expect((await harness.runStore.getRun('run_contested'))?.attempts).toBe(2);
  });

  it('is marked interrupted, as before, with runs.resume off', async () => {
    await setUp(false);
    await harness.runStore.insertRun(record('run_off'), input);
    expect(await harness.runs.recoverInterrupted()).toBe(1);
    expect(await harness.runStore.getRun('run_off')).toMatchObject({ status: 'interrupted', attempts: 1 });
    expect(harness.models.requests).toHaveLength(0);
  });
});
