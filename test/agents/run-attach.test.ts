import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRunEventBus, type RunEvent } from '../../src/bus/index.js';
import { agentConfig, createRunHarness, type RunHarness } from './run-harness.js';

async function collect(source: AsyncIterable<RunEvent> | undefined): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of source ?? []) events.push(event);
  return events;
}

describe('attach', () => {
  let harness: RunHarness;
  afterEach(() => harness.close());

  it('gives a late reader the past events, then live ones, ending after the terminal event', async () => {
    harness = await createRunHarness([agentConfig({ name: 'helper' })]);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    harness.models.script({
      deltas: ['a', 'b', 'c'],
      text: 'abc',
      beforeDelta: (index) => (index === 2 ? held : undefined),
    });
    const run = await harness.runs.start({
      agentName: 'helper',
      messages: [{ role: 'user', content: 'x' }],
      source: 'chat',
    });
    await vi.waitFor(async () =>
      expect((await harness.bus.history(run.runId)).map((event) => event.type)).toContain('text-delta'),
    );
    const late = collect(await harness.runs.attach(run.runId));
    const resumed = collect(await harness.runs.attach(run.runId, { afterSeq: 3 }));
    release();
    const events = await late;
    expect(events.map((event) => event.type)).toEqual([
      'run-start',
      'step-start',
      'text-delta',
      'text-delta',
      'text-delta',
      'run-end',
    ]);
    expect((await resumed).map((event) => event.seq)).toEqual([4, 5, 6]);
  });

  it('replays a finished run from the store once the bus has forgotten it, and is undefined for an unknown run', async () => {
    harness = await createRunHarness([agentConfig({ name: 'helper' })]);
    const run = await harness.runs.start({
      agentName: 'helper',
      messages: [{ role: 'user', content: 'hi' }],
      source: 'chat',
    });
    await run.result;
    const live = await collect(run);

    // A service on a fresh bus: as after a restart, or on a replica whose bus retention has passed.
    const bus = createRunEventBus();
    const restarted = harness.peer({ bus, multiProcess: false });
    try {
      expect(await bus.history(run.runId)).toEqual([]);
      expect(await collect(await restarted.attach(run.runId))).toEqual(live);
      expect((await collect(await restarted.attach(run.runId, { afterSeq: 2 }))).map((event) => event.seq)).toEqual(
        live.slice(2).map((event) => event.seq),
      );
      expect(await restarted.attach('run_unknown')).toBeUndefined();
    } finally {
      await bus.close();
    }
  });

  it('ends the replay of an interrupted run with a run-error made from its record', async () => {
    harness = await createRunHarness([agentConfig({ name: 'helper' })]);
    harness.models.script({ hang: true });
    const run = await harness.runs.start({
      agentName: 'helper',
      messages: [{ role: 'user', content: 'x' }],
      source: 'chat',
    });
    await vi.waitFor(() => expect(harness.models.requests).toHaveLength(1));
    const other = harness.peer({ bus: createRunEventBus(), multiProcess: false });
    // What a restarted server does at start-up; the run's own process is, for the test, still going.
    expect(await other.recoverInterrupted()).toBe(1);
    const events = await collect(await other.attach(run.runId));
    expect(events).toEqual([expect.objectContaining({ type: 'run-error', code: 'interrupted', seq: 1 })]);
    await harness.runs.control(run.runId, 'cancel');
  });
});

describe('client tools', () => {
  let harness: RunHarness;
  afterEach(() => harness.close());

  const weather = {
    name: 'show_weather',
    description: 'Shows the weather in the UI',
    parameters: { type: 'object' as const, properties: { city: { type: 'string' } } },
  };

  it('offers them with the agent tools and ends the run on a call, without running it', async () => {
    harness = await createRunHarness([agentConfig({ name: 'helper', tools: ['clock'] })], { clock: () => 'noon' });
    harness.models.script({
      text: 'Let me show you.',
      toolCalls: [
        { id: 'c1', name: 'show_weather', arguments: '{"city":"Oslo"}' },
        { id: 'c2', name: 'clock', arguments: '{}' },
      ],
    });
    const run = await harness.runs.start({
      agentName: 'helper',
      messages: [{ role: 'user', content: 'weather?' }],
      source: 'agui',
      clientTools: [weather],
    });
    const result = await run.result;
    expect(result).toMatchObject({ status: 'completed', finishReason: 'tool_calls', output: 'Let me show you.' });
    expect(harness.models.requests[0].tools?.map((tool) => tool.name)).toEqual(['clock', 'show_weather']);
    expect(harness.models.requests).toHaveLength(1);
    // The agent's own tool of the same batch still runs; the client's is announced only.
    expect(harness.tools.calls.map((call) => call.name)).toEqual(['clock']);
    const events = await collect(run);
    const toolEvents = events
      .filter((event) => event.type === 'tool-call' || event.type === 'tool-result')
      .map((event) => [event.type, 'name' in event ? event.name : '']);
    expect(toolEvents).toEqual([
      ['tool-call', 'clock'],
      ['tool-result', 'clock'],
      ['tool-call', 'show_weather'],
    ]);
    expect(events.at(-1)?.type).toBe('run-end');
  });

  it('takes the result from a later run as a tool message', async () => {
    harness = await createRunHarness([agentConfig({ name: 'helper' })]);
    harness.models.script({ text: 'It is sunny in Oslo.' });
    const run = await harness.runs.start({
      agentName: 'helper',
      source: 'agui',
      clientTools: [weather],
      messages: [
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'c1', name: 'show_weather', arguments: '{"city":"Oslo"}' }],
        },
        { role: 'tool', content: 'sunny', tool_call_id: 'c1', name: 'show_weather' },
      ],
    });
    expect(await run.result).toMatchObject({
      status: 'completed',
      finishReason: 'stop',
      output: 'It is sunny in Oslo.',
    });
    expect(harness.models.requests[0].messages.at(-1)).toEqual({
      role: 'tool',
      content: 'sunny',
      tool_call_id: 'c1',
      name: 'show_weather',
    });
  });
});
