/**
 * Hostile suite, part (c): long-lived connections (issue #41). Random sequences of what a client can do on an
 * open AG-UI WebSocket (runs, garbage frames, pings, cancels with nothing under way) interleaved with what can
 * happen to its access token meanwhile (revoked, deleted), for plain, single-use and rate-limited tokens.
 * Whatever the sequence: a single-use token gets at most one run (its next ends the socket, `token_used`); a token's requests per minute are never
 * exceeded; once the token is retired the socket ends (error frame naming the code, then close 1008) without
 * waiting for a frame, and no model call is made after; every error frame is `{type,code,message}` and never
 * an internal error; the socket stays open otherwise.
 *
 * FUZZ_RUNS scales the number of sequences (npm run fuzz); FUZZ_SEED replays a run.
 */
import { once } from 'node:events';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { connectWs, type WsClient } from '../gateway/agui/ws/ws-client.js';
import { fuzzRuns, OPERATOR } from './hostile-app.js';

const RUNS = Math.max(12, Math.round(fuzzRuns(3_000) / 250));
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : process.env.FUZZ_RUNS ? undefined : 20_261_129;
const REQUESTS_PER_MINUTE = 2;

const yaml = `
auth:
  api_keys: ["\${TEST_API_KEY}"]
  stream_recheck_seconds: 0.1
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0 }
agents:
  - name: helper
    model: upstream/test-model
`;

type Kind = 'plain' | 'single_use' | 'rate_limited';
type Step =
  | { type: 'run' }
  | { type: 'garbage'; text: string }
  | { type: 'ping' }
  | { type: 'cancel' }
  | { type: 'retire'; how: 'revoke' | 'delete' };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ type: 'run' as const }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }).map((text) => ({ type: 'garbage' as const, text })) },
  { weight: 1, arbitrary: fc.constant({ type: 'ping' as const }) },
  { weight: 1, arbitrary: fc.constant({ type: 'cancel' as const }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('revoke' as const, 'delete' as const).map((how) => ({ type: 'retire' as const, how })),
  },
);

let gateway: TestGateway;
const operator = (path: string, method: string, body?: object) =>
  fetch(`${gateway.url}${path}`, {
    method,
    headers: { ...OPERATOR, ...(body && { 'content-type': 'application/json' }) },
    body: body && JSON.stringify(body),
  });

async function createToken(kind: Kind): Promise<{ token: string; token_id: string }> {
  const response = await operator('/gateway/tokens', 'POST', {
    agent_name: 'helper',
    ...(kind === 'single_use' && { single_use: true }),
    ...(kind === 'rate_limited' && { rate_limit: { requests_per_minute: REQUESTS_PER_MINUTE } }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { token: string; token_id: string };
}

const isTerminal = (frame: { type: string }) => ['run_completed', 'run_error', 'error'].includes(frame.type);

function expectErrorShape(frame: any): void {
  expect(frame).toEqual({
    type: 'error',
    error: { type: expect.any(String), code: expect.any(String), message: expect.any(String) },
  });
  expect(frame.error.code).not.toBe('internal_error');
}

/** Plays the steps on one socket; checks the invariants as it goes. */
async function play(kind: Kind, steps: Step[]): Promise<void> {
  const { token, token_id } = await createToken(kind);
  const client: WsClient = await connectWs(`${gateway.url.replace('http', 'ws')}/agui/ws?format=simple`, {
    authorization: `Bearer ${token}`,
  });
  const closed = once(client.socket, 'close').then(([code, reason]) => ({
    code: code as number,
    reason: (reason as Buffer).toString(),
  }));
  let isClosed = false;
  void closed.then(() => (isClosed = true));
  let completed = 0;
  /** The code the socket ends with once its token no longer holds. */
  let retired: string | undefined;
  try {
    for (const next of steps) {
      if (retired) break;
      const frames = client.frames.length;
      switch (next.type) {
        case 'run': {
          gateway.upstream.enqueue({ kind: 'text', text: 'ok', usage: { prompt_tokens: 3, completion_tokens: 1 } });
          client.send({ type: 'message', content: 'Hello' });
          const end = (await client.until(isTerminal)).at(-1);
          if (end.type === 'run_completed') completed += 1;
          else {
            expectErrorShape(end);
            // The only refusals a live token's run may get on this socket; a spent token also ends the socket.
            expect(['token_used', 'rate_limited']).toContain(end.error.code);
            if (end.error.code === 'token_used') retired = 'token_used';
          }
          break;
        }
        case 'garbage':
          client.send(next.text);
          expectErrorShape(
            (await client.until((frame) => frame.type === 'error' || frame.type === 'run_error')).at(-1),
          );
          break;
        case 'ping':
          client.send({ type: 'ping' });
          await client.until((frame) => frame.type === 'pong');
          break;
        case 'cancel':
          client.send({ type: 'cancel' });
          expect((await client.until((frame) => frame.type === 'error')).at(-1).error.code).toBe('no_active_run');
          break;
        case 'retire': {
          const response =
            next.how === 'revoke'
              ? await operator(`/gateway/tokens/${token_id}/revoke`, 'POST')
              : await operator(`/gateway/tokens/${token_id}`, 'DELETE');
          expect(response.ok).toBe(true);
          retired = next.how === 'revoke' ? 'token_revoked' : 'invalid_token';
          break;
        }
      }
      if (!retired) {
        // The socket outlives every client frame while its token holds.
        expect(isClosed).toBe(false);
        expect(client.frames.length).toBeGreaterThan(frames);
      }
    }
    if (kind === 'single_use') expect(completed).toBeLessThanOrEqual(1);
    if (kind === 'rate_limited') expect(completed).toBeLessThanOrEqual(REQUESTS_PER_MINUTE);
    if (!retired) return;
    // Retired: the socket ends by itself, without a frame from the client, and no model call follows.
    const calls = gateway.upstream.chatRequests().length;
    expect(await closed).toEqual({ code: 1008, reason: retired });
    const last = client.frames.at(-1);
    expectErrorShape(last);
    expect(last.error.code).toBe(retired);
    expect(gateway.upstream.chatRequests().length).toBe(calls);
  } finally {
    await client.close();
  }
}

describe('hostile: long-lived connections', () => {
  beforeAll(async () => {
    gateway = await startTestGateway({ yaml });
  });
  afterAll(() => gateway.close());

  it('holds the rules of each run and of the credential for the life of a WebSocket', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Kind>('plain', 'single_use', 'rate_limited'),
        fc.array(step, { minLength: 1, maxLength: 8 }),
        (kind, steps) => play(kind, steps),
      ),
      { numRuns: RUNS, seed: SEED },
    );
  }, 60_000);
});
