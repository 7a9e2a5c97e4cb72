import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, parseSse, postRun, startAguiGateway, typesOf, type AguiGateway } from './agui-harness.js';

describe('POST /agui/runs', () => {
  let gateway: AguiGateway;
  beforeAll(async () => {
    gateway = await startAguiGateway();
  });
  afterAll(() => gateway.stop());

  it('streams a run as official AG-UI events with stream headers and seq ids', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'Hello there, friend', chunks: 3 });
    const response = await postRun(gateway, { agent_name: 'helper', message: 'Hi' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(response.headers.get('content-encoding')).toBeNull();
    const runId = response.headers.get('x-run-id')!;
    // Without session_id the run starts a new session of the caller: the AG-UI thread.
    const threadId = response.headers.get('x-session-id')!;
    expect(threadId).toMatch(/^ses_/);
    const text = await response.text();
    expect(text).not.toContain('\r');
    const messages = parseSse(text);
    expect(typesOf(messages)).toEqual([
      'RUN_STARTED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ]);
    expect(messages[0].data).toEqual({ type: 'RUN_STARTED', threadId, runId });
    expect(messages.at(-1)!.data).toEqual({ type: 'RUN_FINISHED', threadId, runId });
    const deltas = messages
      .filter((message) => message.event === 'TEXT_MESSAGE_CONTENT')
      .map((message) => message.data.delta);
    expect(deltas.join('')).toBe('Hello there, friend');
    expect(deltas.every((delta) => delta !== '')).toBe(true);
    const ids = messages.filter((message) => message.id !== undefined).map((message) => Number(message.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(messages.at(-1)!.id).toBeDefined();
  });

  it('streams the spec lower-case events with ?format=simple', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'Hello there', chunks: 2 });
    const response = await postRun(gateway, { agent_name: 'helper', message: 'Hi' }, '?format=simple');
    const runId = response.headers.get('x-run-id')!;
    const messages = parseSse(await response.text());
    expect(messages.map((message) => message.data)).toEqual([
      { type: 'run_started', run_id: runId, agent_name: 'helper' },
      { type: 'text_delta', delta: 'Hello ' },
      { type: 'text_delta', delta: 'there' },
      { type: 'run_completed', run_id: runId, output: 'Hello there' },
    ]);
    typesOf(messages);
  });

  it('streams a tool-call run (get_current_time) in both formats', async () => {
    const toolRun = () =>
      gateway.upstream.enqueue(
        { kind: 'tool_calls', calls: [{ name: 'get_current_time', arguments: { timezone: 'UTC' }, id: 'call_1' }] },
        { kind: 'text', text: 'It is noon.', chunks: 1 },
      );
    toolRun();
    const official = parseSse(await (await postRun(gateway, { agent_name: 'timekeeper', message: 'Time?' })).text());
    expect(typesOf(official)).toEqual([
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
    expect(official[1].data).toMatchObject({ toolCallId: 'call_1', toolCallName: 'get_current_time' });
    expect(JSON.parse(official[2].data.delta)).toEqual({ timezone: 'UTC' });
    expect(official[4].data).toMatchObject({ toolCallId: 'call_1' });
    expect(JSON.parse(official[4].data.content)).toHaveProperty('utc');

    toolRun();
    const simple = parseSse(
      await (await postRun(gateway, { agent_name: 'timekeeper', message: 'Time?' }, '?format=simple')).text(),
    );
    expect(typesOf(simple)).toEqual(['run_started', 'tool_call', 'tool_result', 'text_delta', 'run_completed']);
    expect(simple[1].data).toEqual({ type: 'tool_call', name: 'get_current_time', arguments: { timezone: 'UTC' } });
    expect(simple[2].data).toMatchObject({ type: 'tool_result', name: 'get_current_time' });
  });

  it('ends a failing run with RUN_ERROR (and run_error with ?format=simple)', async () => {
    gateway.upstream.enqueue({ kind: 'error', status: 500 });
    const official = parseSse(await (await postRun(gateway, { agent_name: 'helper', message: 'Hi' })).text());
    expect(typesOf(official)).toEqual(['RUN_STARTED', 'RUN_ERROR']);
    expect(official[1].data).toEqual({ type: 'RUN_ERROR', message: expect.any(String), code: expect.any(String) });

    gateway.upstream.enqueue({ kind: 'error', status: 500 });
    const simple = parseSse(
      await (await postRun(gateway, { agent_name: 'helper', message: 'Hi' }, '?format=simple')).text(),
    );
    expect(simple.at(-1)!.data).toEqual({ type: 'run_error', error: expect.any(String) });
  });

  it('answers an unknown agent with 404 and a missing message with 400, as JSON before any stream', async () => {
    const unknown = await postRun(gateway, { agent_name: 'nobody', message: 'Hi' });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/json');
    expect(await errorOf(unknown)).toMatchObject({ type: 'not_found_error', code: 'agent_not_found' });
    const missing = await postRun(gateway, { agent_name: 'helper' });
    expect(missing.status).toBe(400);
    expect(await errorOf(missing)).toMatchObject({ type: 'invalid_request_error' });
    expect((await postRun(gateway, { agent_name: 'helper', message: 'Hi' }, '?format=xml')).status).toBe(400);
  });

  it('points an AG-UI client that posts a RunAgentInput here to the standard route /agui/agents/{name}', async () => {
    const input = { threadId: 't1', runId: 'r1', messages: [{ id: 'm1', role: 'user', content: 'Hi' }], tools: [] };
    const misrouted = await postRun(gateway, { ...input, context: [], state: {}, forwardedProps: {} });
    expect(misrouted.status).toBe(400);
    const error = (await errorOf(misrouted)) as { message: string };
    expect(error.message).toContain('agent_name is required');
    expect(error.message).toContain('/agui/agents/{agent_name}');
  });

  it('continues a session: the thread is the session and the second run sees the first exchange', async () => {
    gateway.upstream.enqueue({ kind: 'text', text: 'Nice to meet you, Ada.' }, { kind: 'text', text: 'You are Ada.' });
    const first = parseSse(
      await (
        await postRun(gateway, { agent_name: 'helper', message: 'I am Ada', session_id: 'agui-session-1' })
      ).text(),
    );
    expect(first[0].data.threadId).toBe('agui-session-1');
    const before = gateway.upstream.chatRequests().length;
    await (await postRun(gateway, { agent_name: 'helper', message: 'Who am I?', session_id: 'agui-session-1' })).text();
    const sent = gateway.upstream
      .chatRequests()
      [before].body.messages.map((message: { role: string; content: string }) => `${message.role}:${message.content}`);
    expect(sent).toEqual([
      'system:You are a helpful assistant.',
      'user:I am Ada',
      'assistant:Nice to meet you, Ada.',
      'user:Who am I?',
    ]);
  });

  it('cancels the run when the client goes away', async () => {
    gateway.upstream.enqueue({
      kind: 'text',
      text: 'a long answer that trickles in slowly, word by word',
      chunks: 12,
      chunkDelayMs: 40,
    });
    const abort = new AbortController();
    const response = await postRun(gateway, { agent_name: 'helper', message: 'x' }, '', { signal: abort.signal });
    const run = gateway.app.runs.live(response.headers.get('x-run-id')!);
    expect(run).toBeDefined();
    await response.body!.getReader().read();
    abort.abort();
    expect(await run!.result).toMatchObject({ status: 'cancelled', error: { code: 'client_closed' } });
    await sleep(0);
  });
});
