import { HttpAgent, verifyEvents, type BaseEvent, type RunAgentResult } from '@ag-ui/client';
import { from, lastValueFrom, toArray } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_API_KEY } from '../../support/app.js';
import { startAguiGateway, type AguiGateway } from './agui-harness.js';

describe('an @ag-ui/client HttpAgent on POST /agui/agents/{name}', () => {
  let gateway: AguiGateway;
  beforeAll(async () => {
    gateway = await startAguiGateway();
  });
  afterAll(() => gateway.stop());

  // The client warns (and strips) on any field @ag-ui/core does not define; our events must draw none.
  const warn = vi.spyOn(console, 'warn');
  afterEach(() => {
    expect(warn.mock.calls.filter((call) => String(call[0]).includes('ag-ui'))).toEqual([]);
    warn.mockClear();
  });

  const createAgent = (name: string, threadId = 'thread-1') =>
    new HttpAgent({
      url: gateway.url(`/agui/agents/${name}`),
      headers: { authorization: `Bearer ${TEST_API_KEY}` },
      threadId,
      initialMessages: [{ id: 'u1', role: 'user', content: 'Hi' }],
    });

  /** Runs the agent, keeping every event it received; the agent's own pipeline has already verified them. */
  const run = async (agent: HttpAgent, parameters: Parameters<HttpAgent['runAgent']>[0] = {}) => {
    const events: BaseEvent[] = [];
    const outcome: { result?: RunAgentResult; error?: unknown } = await agent
      .runAgent(parameters, { onEvent: ({ event }) => void events.push(event) })
      .then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      );
    // And once more, explicitly, through the official verifier.
    await lastValueFrom(from(events).pipe(verifyEvents(), toArray()));
    return { events, types: events.map((event) => event.type), ...outcome };
  };

  it('runs an agent; the events echo the client threadId and runId', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'Hello from the gateway', chunks: 3 });
    const agent = createAgent('helper');
    const { events, types, error } = await run(agent, { runId: 'client-run-1' });
    expect(error).toBeUndefined();
    expect(types).toEqual([
      'RUN_STARTED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ]);
    expect(events[0]).toMatchObject({ threadId: 'thread-1', runId: 'client-run-1' });
    expect(events.at(-1)).toMatchObject({ threadId: 'thread-1', runId: 'client-run-1' });
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Hello from the gateway' });
  });

  it('sends the whole thread as the conversation, with nothing stored twice', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'First answer' }, { kind: 'text', text: 'Second answer' });
    const agent = createAgent('helper', 'thread-2');
    await run(agent);
    agent.addMessage({ id: 'u2', role: 'user', content: 'And again?' });
    const before = gateway.upstream.chatRequests().length;
    await run(agent);
    const sent = gateway.upstream
      .chatRequests()
      [before].body.messages.map((message: { role: string; content: string }) => `${message.role}:${message.content}`);
    expect(sent).toEqual([
      'system:You are a helpful assistant.',
      'user:Hi',
      'assistant:First answer',
      'user:And again?',
    ]);
  });

  it('streams a backend tool call with its result', async () => {
    gateway.upstream.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'get_current_time', arguments: { timezone: 'UTC' }, id: 'call_1' }] },
      { kind: 'text', text: 'It is noon.', chunks: 1 },
    );
    const agent = createAgent('timekeeper');
    const { types, error } = await run(agent);
    expect(error).toBeUndefined();
    expect(types).toEqual([
      'RUN_STARTED',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'TOOL_CALL_RESULT',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ]);
    expect(agent.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(agent.messages[1]).toMatchObject({ toolCalls: [{ id: 'call_1', function: { name: 'get_current_time' } }] });
  });

  it('hands a frontend tool call to the client, which answers it in a new run', async () => {
    const tool = {
      name: 'confirm_booking',
      description: 'Asks the user to confirm',
      parameters: { type: 'object', properties: { date: { type: 'string' } }, required: ['date'] },
    };
    gateway.upstream.enqueue({
      kind: 'tool_calls',
      calls: [{ name: 'confirm_booking', arguments: { date: '2026-05-01' }, id: 'call_fe' }],
    });
    const agent = createAgent('helper', 'thread-3');
    const before = gateway.upstream.chatRequests().length;
    const first = await run(agent, { tools: [tool] });
    expect(first.error).toBeUndefined();
    expect(first.types).toEqual(['RUN_STARTED', 'TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'RUN_FINISHED']);
    expect(
      gateway.upstream
        .chatRequests()
        [before].body.tools.map((entry: { function: { name: string } }) => entry.function.name),
    ).toContain('confirm_booking');
    expect(gateway.upstream.chatRequests()).toHaveLength(before + 1);

    agent.addMessage({ id: 'tool-answer', role: 'tool', toolCallId: 'call_fe', content: 'confirmed' });
    gateway.upstream.enqueue({ kind: 'text', text: 'Booked for May 1st.' });
    const second = await run(agent, { tools: [tool] });
    expect(second.types.at(-1)).toBe('RUN_FINISHED');
    const sent = gateway.upstream.chatRequests()[before + 1].body.messages;
    expect(sent.find((message: { role: string }) => message.role === 'assistant').tool_calls[0]).toMatchObject({
      id: 'call_fe',
      function: { name: 'confirm_booking' },
    });
    expect(sent.find((message: { role: string }) => message.role === 'tool')).toMatchObject({
      tool_call_id: 'call_fe',
      content: 'confirmed',
    });
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Booked for May 1st.' });
  });

  it('reports a failing run as RUN_ERROR, which the verifier accepts', async () => {
    gateway.upstream.enqueue({ kind: 'error', status: 500 });
    const { events, types } = await run(createAgent('helper'));
    expect(types).toEqual(['RUN_STARTED', 'RUN_ERROR']);
    expect(events[1]).toEqual({ type: 'RUN_ERROR', message: expect.any(String), code: expect.any(String) });
  });

  it('answers an unknown agent with 404 before any stream', async () => {
    const response = await fetch(gateway.url('/agui/agents/nobody'), {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ threadId: 't', runId: 'r', messages: [], tools: [], context: [] }),
    });
    expect(response.status).toBe(404);
  });
});
