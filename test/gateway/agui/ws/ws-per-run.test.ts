import { once } from 'node:events';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../../../src/app.js';
import { parseConfigText } from '../../../../src/config/index.js';
import { TEST_API_KEY, TEST_JWT_SECRET } from '../../../support/app.js';
import { tempDataDir } from '../../../support/databases.js';
import { startFakeUpstream, type FakeUpstream } from '../../../support/fake-upstream.js';
import { connectWs, type WsClient } from './ws-client.js';

// Issue #41: a WebSocket's credential and limits hold for each run it starts, not only when it opens.

const yaml = (server: string, auth = '') => `
server: { ${server} }
auth:
  api_keys: ["\${TEST_API_KEY}"]
  jwt: { secret: "\${TEST_JWT_SECRET}" }
  ${auth}
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0, timeout_ms: 10000 }
agents:
  - name: helper
    model: upstream/test-model
`;

interface Gateway {
  app: App;
  upstream: FakeUpstream;
  wsUrl(query?: string): string;
  /** Moves the gateway's clock (JWT expiry) this far ahead of the wall clock. */
  advance(ms: number): void;
  createToken(body: object): Promise<{ token: string; token_id: string }>;
  operator(path: string, method?: string): Promise<Response>;
  stop(): Promise<void>;
}

async function startGateway(server: string, auth?: string): Promise<Gateway> {
  const upstream = await startFakeUpstream();
  const temp = tempDataDir();
  let offsetMs = 0;
  const parsed = parseConfigText(yaml(server, auth), 'test.yaml', {
    TEST_API_KEY,
    TEST_JWT_SECRET,
    UPSTREAM_URL: upstream.url,
  });
  const app = await createApp({
    config: {
      ...parsed,
      server: { ...parsed.server, host: '127.0.0.1', port: 0, data_dir: temp.dataDir, log_level: 'silent' },
    },
    clock: () => new Date(Date.now() + offsetMs),
  });
  const url = await app.listen();
  const operator = (path: string, method = 'GET', body?: object) =>
    fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${TEST_API_KEY}`, ...(body && { 'content-type': 'application/json' }) },
      body: body && JSON.stringify(body),
    });
  return {
    app,
    upstream,
    wsUrl: (query = '') => `${url.replace('http', 'ws')}/agui/ws?format=simple&${query}`,
    advance: (ms) => (offsetMs += ms),
    async createToken(body) {
      const answer = await operator('/gateway/tokens', 'POST', { agent_name: 'helper', ...body });
      expect(answer.status).toBe(201);
      return (await answer.json()) as { token: string; token_id: string };
    },
    operator: (path, method) => operator(path, method),
    async stop() {
      await app.close();
      await upstream.close();
      temp.remove();
    },
  };
}

/** Waits until the run's record says it ended, then returns its status. */
async function endedStatus(gateway: Gateway, runId: string): Promise<string> {
  for (;;) {
    const run = (await (await gateway.operator(`/api/v1/admin/runs/${runId}`)).json()) as { status: string };
    if (run.status !== 'running' && run.status !== 'paused') return run.status;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const bearer = (credential: string) => ({ authorization: `Bearer ${credential}` });
const isTerminal = (frame: { type: string }) => ['run_completed', 'run_error', 'error'].includes(frame.type);

/** Sends one message and resolves with the frame that ended it (the run's end, or an error frame). */
async function runOnce(gateway: Gateway, client: WsClient, content = 'Hello'): Promise<{ type: string; error?: any }> {
  gateway.upstream.enqueue({ kind: 'text', text: 'Hi!', usage: { prompt_tokens: 10, completion_tokens: 5 } });
  client.send({ type: 'message', content });
  return (await client.until(isTerminal)).at(-1);
}

/** The close frame the server sends, as code and reason. */
function closeOf(client: WsClient): Promise<{ code: number; reason: string }> {
  return once(client.socket, 'close').then(([code, reason]) => ({
    code: code as number,
    reason: (reason as Buffer).toString(),
  }));
}

/** Runs until one is refused (at most `limit`): how many were allowed, and the refusal's frame and close. */
async function runsAllowed(gateway: Gateway, client: WsClient, limit = 5) {
  const closed = closeOf(client);
  for (let allowed = 0; allowed < limit; allowed += 1) {
    const end = await runOnce(gateway, client);
    if (end.type === 'error') return { allowed, error: end.error, closed };
    expect(end.type).toBe('run_completed');
  }
  return { allowed: limit, error: undefined, closed };
}

describe('WS /agui/ws: credentials and limits per run', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startGateway('ws_max_connections_per_principal: 2');
  });
  afterAll(() => gateway.stop());

  it.each([
    ['revoked', 'token_revoked', (id: string) => gateway.operator(`/gateway/tokens/${id}/revoke`, 'POST')],
    ['deleted', 'invalid_token', (id: string) => gateway.operator(`/gateway/tokens/${id}`, 'DELETE')],
  ])(
    'refuses the next run of a token %s while its socket is open: error frame %s, then the socket closes',
    async (_how, code, retire) => {
      const { token, token_id } = await gateway.createToken({});
      const client = await connectWs(gateway.wsUrl(), bearer(token));
      expect((await runOnce(gateway, client)).type).toBe('run_completed');
      expect((await retire(token_id)).ok).toBe(true);
      const calls = gateway.upstream.chatRequests().length;
      const { allowed, error, closed } = await runsAllowed(gateway, client);
      expect(allowed).toBe(0);
      expect(error).toMatchObject({ type: 'authentication_error', code });
      expect(await closed).toEqual({ code: 1008, reason: code });
      expect(gateway.upstream.chatRequests().length).toBe(calls);
    },
  );

  it('lets a single-use token start exactly one run on a socket', async () => {
    const { token } = await gateway.createToken({ single_use: true });
    const client = await connectWs(gateway.wsUrl(), bearer(token));
    const { allowed, error, closed } = await runsAllowed(gateway, client);
    expect(allowed).toBe(1);
    expect(error).toMatchObject({ code: 'token_used' });
    expect(await closed).toEqual({ code: 1008, reason: 'token_used' });
  });

  it('refuses the next run once the operator JWT that opened the socket has expired', async () => {
    const exp = Math.floor(Date.now() / 1000) + 600;
    const jwt = await new SignJWT({ sub: 'expiring' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(exp)
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));
    const client = await connectWs(gateway.wsUrl(), bearer(jwt));
    expect((await runOnce(gateway, client)).type).toBe('run_completed');
    gateway.advance(3_600_000);
    try {
      const { allowed, error, closed } = await runsAllowed(gateway, client);
      expect(allowed).toBe(0);
      expect(error).toMatchObject({ code: 'jwt_expired' });
      expect(await closed).toEqual({ code: 1008, reason: 'jwt_expired' });
    } finally {
      gateway.advance(-3_600_000);
    }
  });

  it("applies a token's requests per minute to the runs of its socket", async () => {
    const { token } = await gateway.createToken({ rate_limit: { requests_per_minute: 3 } });
    const client = await connectWs(gateway.wsUrl(), bearer(token));
    const { allowed, error } = await runsAllowed(gateway, client);
    expect(allowed).toBe(3);
    expect(error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
    // A limit refuses the run, not the socket.
    expect(client.socket.readyState).toBe(client.socket.OPEN);
    await client.close();
  });

  it("counts the model tokens of a socket's runs on its token's tokens per minute", async () => {
    const { token } = await gateway.createToken({ rate_limit: { tokens_per_minute: 10 } });
    const client = await connectWs(gateway.wsUrl(), bearer(token));
    const { allowed, error } = await runsAllowed(gateway, client);
    // The first run's 15 tokens used up the 10 a minute.
    expect(allowed).toBe(1);
    expect(error).toMatchObject({ code: 'token_rate_limited' });
    await client.close();
  });

  it('refuses one more socket than ws_max_connections_per_principal for one credential', async () => {
    const { token } = await gateway.createToken({});
    const open = [await connectWs(gateway.wsUrl(), bearer(token)), await connectWs(gateway.wsUrl(), bearer(token))];
    const third = await connectWs(gateway.wsUrl(), bearer(token));
    // The frame may come before the client's 'open' returns: the close is awaited, then the frames read.
    expect(await closeOf(third)).toEqual({ code: 1008, reason: 'too_many_connections' });
    expect(third.frames).toEqual([
      { type: 'error', error: expect.objectContaining({ type: 'rate_limit_error', code: 'too_many_connections' }) },
    ]);
    // Another credential is counted on its own, and a closed socket makes room.
    const operator = await connectWs(gateway.wsUrl(), bearer(TEST_API_KEY));
    expect((await runOnce(gateway, operator)).type).toBe('run_completed');
    await open[0].close();
    const again = await connectWs(gateway.wsUrl(), bearer(token));
    expect((await runOnce(gateway, again)).type).toBe('run_completed');
    await Promise.all([open[1].close(), again.close(), operator.close()]);
  });
});

describe('WS /agui/ws: idle sockets', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startGateway('ws_idle_timeout_seconds: 0.3');
  });
  afterAll(() => gateway.stop());

  it('closes a socket with no run under way and no client frame after ws_idle_timeout_seconds', async () => {
    const client = await connectWs(gateway.wsUrl(), bearer(TEST_API_KEY));
    const closed = closeOf(client);
    expect((await runOnce(gateway, client)).type).toBe('run_completed');
    expect(await closed).toEqual({ code: 1000, reason: 'idle_timeout' });
  });
});

describe('WS /agui/ws: a socket ends when its credential lapses, run or no run', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startGateway('ws_max_connections_per_principal: 5', 'stream_recheck_seconds: 0.2');
  });
  afterAll(() => gateway.stop());

  /** The frames a socket got until the server closed it, and the close. */
  async function endOf(client: WsClient) {
    const closed = await closeOf(client);
    return { frames: client.frames, closed };
  }

  it.each([
    ['revoked', 'token_revoked', (id: string) => gateway.operator(`/gateway/tokens/${id}/revoke`, 'POST')],
    ['deleted', 'invalid_token', (id: string) => gateway.operator(`/gateway/tokens/${id}`, 'DELETE')],
  ])('closes an idle socket whose token is %s: error frame %s, then close 1008', async (_how, code, retire) => {
    const { token, token_id } = await gateway.createToken({});
    const client = await connectWs(gateway.wsUrl(), bearer(token));
    const ended = endOf(client);
    expect((await retire(token_id)).ok).toBe(true);
    expect(await ended).toEqual({
      frames: [{ type: 'error', error: expect.objectContaining({ type: 'authentication_error', code }) }],
      closed: { code: 1008, reason: code },
    });
  });

  it('closes a socket at its operator JWT exp, without waiting for a run', async () => {
    const jwt = await new SignJWT({ sub: 'lapsing', exp: (Date.now() + 400) / 1000 })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));
    const client = await connectWs(gateway.wsUrl(), bearer(jwt));
    expect(await endOf(client)).toEqual({
      frames: [{ type: 'error', error: expect.objectContaining({ code: 'jwt_expired' }) }],
      closed: { code: 1008, reason: 'jwt_expired' },
    });
  });

  it("closes a socket at its access token's expires_at; the run it had under way still completes", async () => {
    const { token } = await gateway.createToken({ expires_in_seconds: 1 });
    const client = await connectWs(gateway.wsUrl(), bearer(token));
    const ended = endOf(client);
    // The upstream holds the answer's second piece until the socket has closed.
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    gateway.upstream.enqueue({
      kind: 'text',
      text: 'one two',
      pieces: ['one', ' two'],
      gates: [{ at: 1, open: held }],
    });
    client.send({ type: 'message', content: 'Hello' });
    const started = (await client.until((frame) => frame.type === 'run_started'))[0];
    const { frames, closed } = await ended;
    expect(closed).toEqual({ code: 1008, reason: 'token_expired' });
    expect(frames.at(-1)).toEqual({ type: 'error', error: expect.objectContaining({ code: 'token_expired' }) });
    answer();
    expect(await endedStatus(gateway, started.run_id as string)).toBe('completed');
  });
});
