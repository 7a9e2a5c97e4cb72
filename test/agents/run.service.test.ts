import { afterEach, describe, expect, it } from 'vitest';
import type { ModelPromptLog, ToolPromptLog } from '../../src/agents/index.js';
import type { RunEvent } from '../../src/bus/index.js';
import { UpstreamError } from '../../src/errors.js';
import { toolCall } from './fakes.js';
import { agentConfig, createRunHarness, type RunHarness } from './run-harness.js';

describe('run service', () => {
  let harness: RunHarness;
  afterEach(() => harness.close());

  it('streams text deltas as events and records the run and its model step', async () => {
    harness = await createRunHarness([agentConfig({ name: 'helper', system_prompt: 'Be brief.', temperature: 0.3 })]);
    harness.models.script({ deltas: ['Hel', 'lo'], text: 'Hello', usage: { inputTokens: 12, outputTokens: 3 } });
    const run = await harness.runs.start({
      agentName: 'helper',
      messages: [{ role: 'user', content: 'hi' }],
      source: 'chat',
    });
    const events: RunEvent[] = [];
    for await (const event of run) events.push(event);
    expect(events.map((event) => event.type)).toEqual([
      'run-start',
      'step-start',
      'text-delta',
      'text-delta',
      'run-end',
    ]);
    expect(events.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(events.every((event) => event.runId === run.runId && typeof event.at === 'string')).toBe(true);

    const result = await run.result;
    expect(result).toMatchObject({
      status: 'completed',
      output: 'Hello',
      finishReason: 'stop',
      usage: { inputTokens: 12, outputTokens: 3, totalTokens: 15 },
      steps: 1,
      costUsd: 0,
    });
    expect(harness.models.requests[0]).toMatchObject({
      model: 'up/test-model',
      temperature: 0.3,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
    });

    const stored = await harness.runs.find(run.runId);
    expect(stored?.run).toMatchObject({
      status: 'completed',
      agent_name: 'helper',
      source: 'chat',
      output: 'Hello',
      total_tokens: 15,
      steps: 1,
      model: 'up/test-model',
    });
    expect(stored?.run.finished_at).toBeTruthy();
    const log = stored?.steps[0].prompt_log as ModelPromptLog;
    expect(stored?.steps[0]).toMatchObject({
      kind: 'model',
      name: 'up/test-model',
      status: 'completed',
      input_tokens: 12,
      output_tokens: 3,
    });
    expect(log).toMatchObject({
      response: 'Hello',
      finish_reason: 'stop',
      temperature: 0.3,
      input_tokens: 12,
      output_tokens: 3,
    });
    expect(log.messages).toHaveLength(2);
    expect(log.ttft_ms).toBeTypeOf('number');
  });

  it('refuses to start a run it cannot record', async () => {
    harness = await createRunHarness(
      [agentConfig({ name: 'helper' })],
      {},
      {
        wrapStore: (store) => ({ ...store, insertRun: async () => Promise.reject(new Error('disk full')) }),
      },
    );
    harness.models.script({ text: 'Hello', usage: { inputTokens: 1, outputTokens: 1 } });
    await expect(
      harness.runs.start({ agentName: 'helper', messages: [{ role: 'user', content: 'hi' }], source: 'chat' }),
    ).rejects.toThrow('disk full');
    expect(harness.runs.active()).toEqual([]);
    expect(await harness.runStore.listRuns({ limit: 10, offset: 0 })).toEqual([]);
  });

  it('runs tool calls in parallel, feeds results (and tool errors) back, then answers', async () => {
    harness = await createRunHarness([agentConfig({ name: 'helper', tools: ['clock', 'broken'] })], {
      clock: () => '10:00',
      broken: () => {
        throw new Error('disk on fire');
      },
      secret: () => 'never',
    });
    harness.models.script(
      {
        toolCalls: [toolCall('clock', { tz: 'UTC' }, 'c1'), toolCall('broken', {}, 'c2'), toolCall('secret', {}, 'c3')],
      },
      { text: 'It is 10:00.' },
    );
    const run = await harness.runs.start({
      agentName: 'helper',
      messages: [{ role: 'user', content: 'time?' }],
      source: 'chat',
    });
    const result = await run.result;
    expect(result).toMatchObject({ status: 'completed', output: 'It is 10:00.', steps: 5, usage: { totalTokens: 30 } });
    expect(harness.tools.calls.map((call) => call.name).sort()).toEqual(['broken', 'clock']);
    expect(harness.tools.calls.find((call) => call.name === 'clock')?.args).toEqual({ tz: 'UTC' });

    const second = harness.models.requests[1].messages;
    expect(second.slice(1)).toEqual([
      { role: 'assistant', content: '', tool_calls: expect.any(Array) },
      { role: 'tool', content: '10:00', tool_call_id: 'c1', name: 'clock' },
      { role: 'tool', content: 'Error: disk on fire', tool_call_id: 'c2', name: 'broken' },
      { role: 'tool', content: expect.stringContaining('unknown tool "secret"'), tool_call_id: 'c3', name: 'secret' },
    ]);
    expect(harness.models.requests[0].tools?.map((tool) => tool.name)).toEqual(['broken', 'clock']);

    const { steps } = (await harness.runs.find(run.runId))!;
    expect(steps.map((step) => [step.step_index, step.kind, step.status])).toEqual([
      [0, 'model', 'completed'],
      [1, 'tool', 'completed'],
      [2, 'tool', 'failed'],
      [3, 'tool', 'failed'],
      [4, 'model', 'completed'],
    ]);
    expect(steps[1].prompt_log as ToolPromptLog).toEqual({
      tool_call_id: 'c1',
      arguments: '{"tz":"UTC"}',
      result: '10:00',
    });
    expect((steps[2].prompt_log as ToolPromptLog).error?.message).toBe('disk on fire');
  });

  it('fails with max_iterations_exceeded after max_iterations model calls', async () => {
    harness = await createRunHarness([agentConfig({ name: 'loopy', tools: ['clock'], max_iterations: 2 })], {
      clock: () => 'now',
    });
    harness.models.script(
      { toolCalls: [toolCall('clock')] },
      { toolCalls: [toolCall('clock')] },
      { text: 'never reached' },
    );
    const run = await harness.runs.start({
      agentName: 'loopy',
      messages: [{ role: 'user', content: 'go' }],
      source: 'chat',
    });
    const result = await run.result;
    expect(result.status).toBe('failed');
    if (result.status !== 'failed') return;
    expect(result.error.code).toBe('max_iterations_exceeded');
    expect(result.error.message).toContain('max_iterations');
    expect(harness.models.requests).toHaveLength(2);
    expect(harness.tools.calls).toHaveLength(1);
    const stored = await harness.runs.find(run.runId);
    expect(stored?.run).toMatchObject({ status: 'failed', error_code: 'max_iterations_exceeded', steps: 3 });
    const last = run[Symbol.asyncIterator]();
    const types: string[] = [];
    for (let next = await last.next(); !next.done; next = await last.next()) types.push(next.value.type);
    expect(types.at(-1)).toBe('run-error');
  });

  it('records an upstream failure, keeping the text streamed before it', async () => {
    harness = await createRunHarness([agentConfig({ name: 'helper' })]);
    harness.models.script({
      deltas: ['part '],
      text: 'part ',
      error: new UpstreamError({ message: 'connection reset', retryable: true }),
      failAfterDeltas: true,
    });
    const run = await harness.runs.start({
      agentName: 'helper',
      messages: [{ role: 'user', content: 'x' }],
      source: 'chat',
    });
    const result = await run.result;
    expect(result).toMatchObject({ status: 'failed', error: { code: 'upstream_error', status: 502 } });
    const stored = await harness.runs.find(run.runId);
    expect(stored?.run).toMatchObject({
      status: 'failed',
      error_code: 'upstream_error',
      error_message: 'connection reset',
      steps: 1,
    });
    expect(stored?.steps[0]).toMatchObject({ status: 'failed' });
    expect((stored?.steps[0].prompt_log as ModelPromptLog).error?.message).toBe('connection reset');
  });

  it('cancels at once: the abort reaches the model call and the record says cancelled', async () => {
    harness = await createRunHarness([agentConfig({ name: 'helper' })]);
    harness.models.script({ hang: true });
    const run = await harness.runs.start({
      agentName: 'helper',
      messages: [{ role: 'user', content: 'x' }],
      source: 'chat',
    });
    for await (const event of run) if (event.type === 'step-start') break;
    expect(harness.runs.live(run.runId)).toBe(run);
    run.control.cancel();
    const result = await run.result;
    expect(result).toMatchObject({ status: 'cancelled', error: { code: 'cancelled' } });
    expect(harness.models.requests[0].signal?.aborted).toBe(true);
    const stored = await harness.runs.find(run.runId);
    expect(stored?.run).toMatchObject({ status: 'cancelled', error_code: 'cancelled' });
    // The aborted model call records the run's cancellation, a catalog code, whatever the client threw.
    expect((stored?.steps[0].prompt_log as ModelPromptLog).error?.code).toBe('cancelled');
    expect(harness.runs.live(run.runId)).toBeUndefined();
  });

  it('overrides temperature and max_tokens per request and refuses unknown agents', async () => {
    harness = await createRunHarness([agentConfig({ name: 'helper', max_tokens: 100 })]);
    const run = await harness.runs.start({
      agentName: 'helper',
      messages: [{ role: 'user', content: 'x' }],
      source: 'agui',
      temperature: 0,
      maxTokens: 7,
    });
    await run.result;
    expect(harness.models.requests[0]).toMatchObject({ temperature: 0, maxTokens: 7 });
    await expect(harness.runs.start({ agentName: 'nobody', messages: [], source: 'chat' })).rejects.toMatchObject({
      status: 404,
    });
  });

  it('drain cancels runs still going after the timeout', async () => {
    harness = await createRunHarness([agentConfig({ name: 'helper' })]);
    harness.models.script({ hang: true });
    const run = await harness.runs.start({
      agentName: 'helper',
      messages: [{ role: 'user', content: 'x' }],
      source: 'chat',
    });
    await harness.runs.drain(10);
    expect(await run.result).toMatchObject({ status: 'cancelled', error: { code: 'shutdown' } });
  });
});
