import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_API_KEY } from '../../../support/app.js';
import { aguiYaml, startAguiGateway, type AguiGateway } from '../agui-harness.js';
import { connectWs } from './ws-client.js';

const isTerminal = (frame: { type: string }) =>
  ['RUN_FINISHED', 'RUN_ERROR', 'run_completed', 'run_error'].includes(frame.type);

describe('WS /agui/ws', () => {
  let gateway: AguiGateway;
  let wsUrl: (query: string) => string;
  const auth = { authorization: `Bearer ${TEST_API_KEY}` };
  beforeAll(async () => {
    gateway = await startAguiGateway();
    wsUrl = (query) => `${gateway.app.url.replace('http', 'ws')}/agui/ws?${query}`;
  });
  afterAll(() => gateway.stop());

  it('sends each event as one JSON frame, and two messages on one socket continue one session', async () => {
    const client = await connectWs(wsUrl('agent_name=helper'), auth);
    gateway.upstream.enqueue({ kind: 'text', text: 'Hello Ada.', chunks: 2 }, { kind: 'text', text: 'You are Ada.' });
    client.send({ type: 'message', content: 'I am Ada' });
    const first = await client.until(isTerminal);
    expect(first.map((frame) => frame.type)).toEqual([
      'RUN_STARTED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ]);
    const threadId = first[0].threadId;
    expect(threadId).toMatch(/^ses_/);

    const before = gateway.upstream.chatRequests().length;
    client.send({ type: 'message', content: 'Who am I?' });
    const second = await client.until(isTerminal);
    expect(second[0]).toMatchObject({ type: 'RUN_STARTED', threadId });
    expect(second[0].runId).not.toBe(first[0].runId);
    const sent = gateway.upstream
      .chatRequests()
      [before].body.messages.map((message: { role: string; content: string }) => `${message.role}:${message.content}`);
    expect(sent).toEqual([
      'system:You are a helpful assistant.',
      'user:I am Ada',
      'assistant:Hello Ada.',
      'user:Who am I?',
    ]);
    await client.close();
  });

  it('speaks the simple format with ?format=simple and adopts a session_id sent with a message', async () => {
    const client = await connectWs(wsUrl('agent_name=helper&format=simple'), auth);
    gateway.upstream.enqueue({ kind: 'text', text: 'Hi!', chunks: 1 });
    client.send({ type: 'message', content: 'Hello', session_id: 'ws-session-1' });
    const frames = await client.until(isTerminal);
    expect(frames).toEqual([
      { type: 'run_started', run_id: expect.stringMatching(/^run_/), agent_name: 'helper' },
      { type: 'text_delta', delta: 'Hi!' },
      { type: 'run_completed', run_id: frames[0].run_id, output: 'Hi!' },
    ]);
    expect((await gateway.app.runs.find(frames[0].run_id))?.run.session_id).toBe('ws-session-1');
    await client.close();
  });

  it('cancels the current run on {type:"cancel"} and keeps the socket open', async () => {
    const client = await connectWs(wsUrl('agent_name=helper'), auth);
    gateway.upstream.enqueue({
      kind: 'text',
      text: 'a long answer that trickles in slowly, word by word',
      chunks: 12,
      chunkDelayMs: 40,
    });
    client.send({ type: 'message', content: 'Talk slowly' });
    const opening = await client.until((frame) => frame.type === 'TEXT_MESSAGE_CONTENT');
    client.send({ type: 'message', content: 'too early' });
    const busy = await client.until((frame) => frame.type === 'error');
    expect(busy.at(-1).error).toMatchObject({ code: 'run_in_progress' });
    client.send({ type: 'cancel' });
    const rest = await client.until(isTerminal);
    expect(rest.at(-1)).toEqual({ type: 'RUN_ERROR', message: expect.any(String), code: 'cancelled' });
    expect(rest.at(-2)).toMatchObject({ type: 'TEXT_MESSAGE_END' });
    expect((await gateway.app.runs.find(opening[0].runId))?.run.status).toBe('cancelled');

    client.send({ type: 'cancel' });
    expect((await client.until((frame) => frame.type === 'error')).at(-1).error).toMatchObject({
      code: 'no_active_run',
    });
    await client.close();
  });

  it('answers bad frames with an error frame instead of dropping the socket', async () => {
    const client = await connectWs(wsUrl('agent_name=helper'), auth);
    const nextError = () => client.until((frame) => frame.type === 'error');
    client.send('not json');
    expect((await nextError()).at(-1)).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', code: 'invalid_json', message: expect.any(String) },
    });
    client.send({ type: 'shout', content: 'x' });
    expect((await nextError()).at(-1).error).toMatchObject({ code: 'invalid_frame' });
    client.send({ type: 'message' });
    expect((await nextError()).at(-1).error).toMatchObject({ code: 'invalid_frame' });
    client.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    expect((await nextError()).at(-1).error).toMatchObject({ code: 'invalid_frame' });
    client.send({ type: 'ping' });
    expect(await client.until((frame) => frame.type === 'pong')).toEqual([{ type: 'pong' }]);
    expect(client.socket.readyState).toBe(client.socket.OPEN);
    await client.close();
  });

  it('a plain GET (no upgrade) without run_id is 400 missing_run_id', async () => {
    const answer = await fetch(`${gateway.app.url}/agui/ws`, { headers: auth });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'missing_run_id' } });
  });

  it('refuses the upgrade for an unknown agent (404) and no credentials (401)', async () => {
    await expect(connectWs(wsUrl('agent_name=nobody'), auth)).rejects.toMatchObject({ statusCode: 404 });
    await expect(connectWs(wsUrl('agent_name=helper'))).rejects.toMatchObject({ statusCode: 401 });
  });

  // Spec 4.2: the client sends only {type: "message", content}; ?agent_name= is our extension.
  const agentOfFirstRun = async (client: Awaited<ReturnType<typeof connectWs>>) => {
    client.send({ type: 'message', content: 'Who are you?' });
    const frames = await client.until(isTerminal);
    await client.close();
    return frames[0].agent_name as string;
  };

  it('talks to the first agent of the config when the socket names none', async () => {
    expect(await agentOfFirstRun(await connectWs(wsUrl('format=simple'), auth))).toBe('helper');
    expect(await agentOfFirstRun(await connectWs(wsUrl('format=simple&agent_name=other'), auth))).toBe('other');
  });

  it("talks to an access token's own agent when the socket names none", async () => {
    const created = await fetch(`${gateway.app.url}/gateway/tokens`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ agent_name: 'timekeeper' }),
    });
    const { token } = (await created.json()) as { token: string };
    gateway.upstream.enqueue({ kind: 'text', text: 'It is noon.' });
    expect(await agentOfFirstRun(await connectWs(wsUrl('format=simple'), { authorization: `Bearer ${token}` }))).toBe(
      'timekeeper',
    );
  });

  it('closes the connection of a refused upgrade instead of leaving it open', async () => {
    const { port } = new URL(gateway.app.url);
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.write(
      'GET /agui/ws?agent_name=helper HTTP/1.1\r\nHost: gateway\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    );
    await once(socket, 'close');
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 401 Unauthorized');
  });
});

describe('WS /agui/ws with gateway.agui_default_agent', () => {
  it('talks to the configured default agent when the socket names none', async () => {
    const gateway = await startAguiGateway(`${aguiYaml}\ngateway: { agui_default_agent: other }\n`);
    try {
      const client = await connectWs(`${gateway.app.url.replace('http', 'ws')}/agui/ws?format=simple`, {
        authorization: `Bearer ${TEST_API_KEY}`,
      });
      client.send({ type: 'message', content: 'Hello' });
      const frames = await client.until(isTerminal);
      expect(frames[0]).toMatchObject({ type: 'run_started', agent_name: 'other' });
      expect(frames.at(-1).type).toBe('run_completed');
      await client.close();
    } finally {
      await gateway.stop();
    }
  });
});

describe('WS /agui/ws without any agent', () => {
  it('refuses the upgrade with 400 missing_agent_name when the socket names none', async () => {
    const gateway = await startAguiGateway('auth:\n  api_keys: ["${TEST_API_KEY}"]\n');
    try {
      const refused = connectWs(`${gateway.app.url.replace('http', 'ws')}/agui/ws`, {
        authorization: `Bearer ${TEST_API_KEY}`,
      });
      await expect(refused).rejects.toMatchObject({
        statusCode: 400,
        body: { error: { type: 'invalid_request_error', code: 'missing_agent_name' } },
      });
    } finally {
      await gateway.stop();
    }
  });
});
