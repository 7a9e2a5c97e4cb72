import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/app.js';
import { parseConfigText } from '../../src/config/index.js';
import { TEST_API_KEY, TEST_JWT_SECRET } from '../support/app.js';
import { tempDataDir } from '../support/databases.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';

// Issue #41: a long SSE stream ends when the credential that opened it lapses (a JWT's exp, an access token
// revoked), with the protocol's error; the run it shows goes on.

const YAML = `
auth:
  api_keys: ["\${TEST_API_KEY}"]
  jwt: { secret: "\${TEST_JWT_SECRET}" }
  stream_recheck_seconds: 0.2
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0, timeout_ms: 10000 }
agents:
  - name: helper
    model: upstream/test-model
`;

/** A JWT that lapses `ms` from now (a NumericDate may have a fraction): the stream's timer, not a sleep. */
async function jwtExpiringIn(ms: number): Promise<string> {
  return new SignJWT({ sub: 'streamer', exp: (Date.now() + ms) / 1000 })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode(TEST_JWT_SECRET));
}

interface SseBlock {
  event?: string;
  data: string;
}

/** An SSE response read block by block: `next` waits for one matching, `rest` reads to the end. */
function readSse(response: Response) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let ended = false;
  const pending: SseBlock[] = [];
  const pull = async (): Promise<boolean> => {
    const { value, done } = await reader.read();
    if (done) return ((ended = true), false);
    buffer += value;
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (data !== undefined) pending.push({ event: /^event: (.*)$/m.exec(block)?.[1], data });
    }
    return true;
  };
  return {
    async next(match: (block: SseBlock) => boolean): Promise<SseBlock> {
      for (;;) {
        const index = pending.findIndex(match);
        if (index >= 0) return pending.splice(index, 1)[0];
        if (!(await pull())) throw new Error('the stream ended');
      }
    },
    /** Every block left once the server closed the stream. */
    async rest(): Promise<SseBlock[]> {
      while (!ended) await pull();
      return pending.splice(0);
    },
  };
}

describe('a stream ends when its credential lapses', () => {
  let app: App;
  let url: string;
  let upstream: FakeUpstream;
  let temp: ReturnType<typeof tempDataDir>;
  const operator = (path: string, method = 'GET', body?: object) =>
    fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${TEST_API_KEY}`, ...(body && { 'content-type': 'application/json' }) },
      body: body && JSON.stringify(body),
    });
  /** Waits until the run's record says it ended, then returns its status. */
  const endedStatus = async (runId: string): Promise<string> => {
    for (;;) {
      const run = (await (await operator(`/api/v1/admin/runs/${runId}`)).json()) as { status: string };
      if (run.status !== 'running' && run.status !== 'paused') return run.status;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const gate = () => {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    return { open, opened };
  };

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    temp = tempDataDir();
    const parsed = parseConfigText(YAML, 'test.yaml', { TEST_API_KEY, TEST_JWT_SECRET, UPSTREAM_URL: upstream.url });
    app = await createApp({
      config: {
        ...parsed,
        server: { ...parsed.server, host: '127.0.0.1', port: 0, data_dir: temp.dataDir, log_level: 'silent' },
      },
    });
    url = await app.listen();
  });
  afterAll(async () => {
    await app?.close();
    await upstream?.close();
    temp?.remove();
  });

  it('closes the admin run-events stream of an operator JWT at its exp with an error event jwt_expired', async () => {
    const response = await fetch(`${url}/api/v1/admin/runs/events`, {
      headers: { authorization: `Bearer ${await jwtExpiringIn(400)}` },
    });
    expect(response.status).toBe(200);
    const stream = readSse(response);
    await stream.next((block) => block.event === 'ready');
    const [last, ...after] = await stream.rest();
    expect(after).toEqual([]);
    expect(last.event).toBe('error');
    expect(JSON.parse(last.data)).toEqual({
      error: { type: 'authentication_error', code: 'jwt_expired', message: 'JWT has expired' },
    });
  });

  it('closes an AG-UI attach stream of an access token revoked meanwhile with RUN_ERROR token_revoked; the run goes on', async () => {
    const created = await operator('/gateway/tokens', 'POST', { agent_name: 'helper' });
    const { token, token_id } = (await created.json()) as { token: string; token_id: string };
    const hold = gate();
    upstream.enqueue({ kind: 'text', text: 'one two', pieces: ['one', ' two'], gates: [{ at: 1, open: hold.opened }] });
    // The token's own run, streamed to the client that started it.
    const started = await fetch(`${url}/agui/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agent_name: 'helper', message: 'hi' }),
    });
    expect(started.status).toBe(200);
    const runId = started.headers.get('x-run-id')!;
    const owner = readSse(started);
    const attached = await fetch(`${url}/agui/ws?run_id=${runId}&access_token=${token}`);
    expect(attached.status).toBe(200);
    const viewer = readSse(attached);
    await viewer.next((block) => block.data.includes('"TEXT_MESSAGE_CONTENT"'));
    await owner.next((block) => block.data.includes('"TEXT_MESSAGE_CONTENT"'));

    expect((await operator(`/gateway/tokens/${token_id}/revoke`, 'POST')).status).toBe(200);
    for (const stream of [viewer, owner]) {
      const rest = await stream.rest();
      const last = JSON.parse(rest.at(-1)!.data) as Record<string, unknown>;
      expect(last).toMatchObject({ type: 'RUN_ERROR', code: 'token_revoked' });
      expect(rest.some((block) => block.data.includes('"RUN_FINISHED"'))).toBe(false);
    }
    // Admitted while the token was good: the run is not cancelled by its streams' ending.
    hold.open();
    expect(await endedStatus(runId)).toBe('completed');
  });

  it('ends an A2A message/stream of an access token revoked meanwhile with a JSON-RPC error event token_revoked', async () => {
    const created = await operator('/gateway/tokens', 'POST', { agent_name: 'helper', scopes: ['a2a'] });
    const { token, token_id } = (await created.json()) as { token: string; token_id: string };
    const hold = gate();
    upstream.enqueue({ kind: 'text', text: 'one two', pieces: ['one', ' two'], gates: [{ at: 1, open: hold.opened }] });
    const message = { kind: 'message', messageId: 'msg-lapse', role: 'user', parts: [{ kind: 'text', text: 'hi' }] };
    const response = await fetch(`${url}/a2a/helper`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'lapse-1', method: 'message/stream', params: { message } }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const stream = readSse(response);
    const first = JSON.parse((await stream.next(() => true)).data) as { result: { id: string } };
    expect((await operator(`/gateway/tokens/${token_id}/revoke`, 'POST')).status).toBe(200);
    const last = (await stream.rest()).at(-1)!;
    expect(last.event).toBe('error');
    expect(JSON.parse(last.data)).toMatchObject({
      jsonrpc: '2.0',
      id: 'lapse-1',
      error: { code: -32000, data: { type: 'authentication_error', code: 'token_revoked' } },
    });
    hold.open();
    // The task goes on: an operator reads it completed.
    for (;;) {
      const got = await operator('/a2a/helper', 'POST', {
        jsonrpc: '2.0',
        id: 2,
        method: 'tasks/get',
        params: { id: first.result.id },
      });
      const state = ((await got.json()) as { result?: { status: { state: string } } }).result?.status.state;
      if (state === 'completed') break;
      expect(state).toBe('working');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });

  it('ends an OpenAI stream whose JWT expires mid-answer with an error chunk and no [DONE]; the run goes on', async () => {
    const hold = gate();
    upstream.enqueue({ kind: 'text', text: 'one two', pieces: ['one', ' two'], gates: [{ at: 1, open: hold.opened }] });
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await jwtExpiringIn(600)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'helper', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(200);
    const runId = response.headers.get('x-run-id')!;
    const stream = readSse(response);
    await stream.next((block) => block.data.includes('"content":"one"'));
    const rest = await stream.rest();
    expect(rest.map((block) => block.data)).not.toContain('[DONE]');
    expect(JSON.parse(rest.at(-1)!.data)).toEqual({
      error: { type: 'authentication_error', code: 'jwt_expired', message: 'JWT has expired' },
    });
    hold.open();
    expect(await endedStatus(runId)).toBe('completed');
  });
});
