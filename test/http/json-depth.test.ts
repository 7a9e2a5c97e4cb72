import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/index.js';
import { createServer, exceedsJsonDepth } from '../../src/http/index.js';
import { BASE_YAML, startTestApp, TEST_API_KEY, type TestApp } from '../support/app.js';
import { hmacHex } from '../gateway/triggers/webhooks/signing.js';

/** `{"a": {"a": ... 1 ...}}`: `depth` nested objects. */
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const WEBHOOK_SECRET = 'depth-test-webhook-secret';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp(`${BASE_YAML}
webhooks:
  - name: deep
    verification: hmac-sha256
    secret: ${WEBHOOK_SECRET}
`);
});
afterAll(() => app.stop());

const operator = { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' };
const post = async (path: string, body: string, headers: Record<string, string> = operator) => {
  const response = await fetch(`${app.url}${path}`, { method: 'POST', headers, body });
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) as Record<string, unknown> };
};
const TOO_DEEP = {
  error: {
    type: 'invalid_request_error',
    code: 'json_too_deep',
    message: 'The JSON body is nested more than 64 levels deep',
  },
};

describe('one JSON depth limit (server.max_json_depth, default 64) for every body', () => {
  // Chat completions ignore unknown fields, so the extra field reaches the route; the unknown model then answers 404.
  const chat = (depth: number) =>
    `{"model":"nobody","messages":[{"role":"user","content":"hi"}],"extra":${nested(depth - 1)}}`;

  it('/v1/chat/completions: 10,000 deep is 400 json_too_deep; exactly 64 deep reaches the route', async () => {
    expect(await post('/v1/chat/completions', chat(10_000))).toMatchObject({ status: 400, body: TOO_DEEP });
    expect(await post('/v1/chat/completions', chat(65))).toMatchObject({ status: 400, body: TOO_DEEP });
    const atLimit = await post('/v1/chat/completions', chat(64));
    expect(atLimit.status).toBe(404);
    expect(atLimit.body).toMatchObject({ error: { code: 'model_not_found' } });
  });

  it('an admin route: 10,000 deep is 400 json_too_deep, never a stack overflow', async () => {
    const answer = await post('/gateway/tokens', `{"agent_name":"helper","scopes":["chat"],"x":${nested(10_000)}}`);
    expect(answer).toMatchObject({ status: 400, body: TOO_DEEP });
    expect(answer.text).not.toMatch(/call stack/i);
  });

  it('/a2a/{agent}: 10,000 deep is a JSON-RPC invalid request (400); at the limit the SDK answers', async () => {
    const request = (depth: number) =>
      `{"jsonrpc":"2.0","id":7,"method":"tasks/get","params":{"id":"no-such-task","metadata":${nested(depth - 2)}}}`;
    const deep = await post('/a2a/helper', request(10_000));
    expect(deep.status).toBe(400);
    expect(deep.body).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'The JSON body is nested more than 64 levels deep' },
    });
    expect(deep.text).not.toMatch(/call stack/i);
    const atLimit = await post('/a2a/helper', request(64));
    expect(atLimit).toMatchObject({ status: 200, body: { jsonrpc: '2.0', id: 7, error: { code: -32001 } } });
  });

  it('a webhook: 10,000 deep is 400 json_too_deep after verification and nothing is stored; at the limit it is accepted', async () => {
    const send = (body: string) =>
      post('/webhooks/deep', body, {
        'content-type': 'application/json',
        'x-signature': hmacHex(body, WEBHOOK_SECRET),
      });
    const deep = `{"type":"too.deep","data":${nested(10_000)}}`;
    expect(await send(deep)).toMatchObject({ status: 400, body: TOO_DEEP });
    // A GitHub-style form post carries the JSON in a field: the same limit applies to it.
    const form = `payload=${encodeURIComponent(deep)}`;
    expect(
      await post('/webhooks/deep', form, {
        'content-type': 'application/x-www-form-urlencoded',
        'x-signature': hmacHex(form, WEBHOOK_SECRET),
      }),
    ).toMatchObject({ status: 400, body: TOO_DEEP });
    const stored = async () =>
      (await (
        await fetch(`${app.url}/api/v1/admin/triggers/deliveries?kind=webhook`, { headers: operator })
      ).json()) as { event: string }[];
    expect(await stored()).toEqual([]);

    expect(await send(`{"type":"at.limit","data":${nested(63)}}`)).toMatchObject({
      status: 202,
      body: { event: 'deep.at.limit' },
    });
    expect((await stored()).map((delivery) => delivery.event)).toEqual(['deep.at.limit']);
  });
});

describe('the limit is configurable', () => {
  it('server.max_json_depth: 8 lets 8 levels through and refuses 9', async () => {
    const config = parseConfigText('server: { max_json_depth: 8 }', 'depth.yaml');
    const server = await createServer({
      logLevel: 'silent',
      bodyLimitBytes: 1_048_576,
      maxJsonDepth: config.server.max_json_depth,
      corsOrigins: [],
      version: 'test',
    });
    server.post('/echo', async (request) => ({ ok: request.body !== undefined }));
    try {
      const inject = (body: string) =>
        server.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: body });
      expect((await inject(nested(8))).json()).toEqual({ ok: true });
      const refused = await inject(nested(9));
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({
        error: {
          type: 'invalid_request_error',
          code: 'json_too_deep',
          message: 'The JSON body is nested more than 8 levels deep',
        },
      });
    } finally {
      await server.close();
    }
  });

  it('rejects a limit above 1000 at load, where recursive code could overflow again', () => {
    expect(() => parseConfigText('server: { max_json_depth: 5000 }', 'depth.yaml')).toThrow(/max_json_depth/);
  });
});

describe('exceedsJsonDepth', () => {
  const depthOf = (value: unknown): number =>
    typeof value === 'object' && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;

  it('agrees with the real nesting of any JSON value, whatever brackets, quotes and backslashes its strings hold', () => {
    const text = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', ' ') });
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.integer(),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(text, tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: 6 }), (json, limit) => {
        expect(exceedsJsonDepth(JSON.stringify(json), limit)).toBe(depthOf(json) > limit);
      }),
      { numRuns: 500 },
    );
  });
});
