import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AuthenticationError,
  BudgetExceededError,
  ConflictError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionError,
  RateLimitError,
  UnavailableError,
  UpstreamError,
  ValidationError,
} from '../../src/errors.js';
import { createServer, healthRoutes } from '../../src/http/index.js';
import { LogCapture } from '../support/app.js';
import { injectFetch } from '../support/inject.js';

const THROWERS: Record<string, () => Error> = {
  validation: () => new ValidationError('name: too long', 'invalid_model', { param: 'name' }),
  authentication: () => new AuthenticationError(),
  permission: () => new PermissionError('not yours'),
  not_found: () => new NotFoundError('No run "run_x"', 'run_not_found'),
  conflict: () => new ConflictError('run is not paused', 'invalid_run_state'),
  budget: () => new BudgetExceededError('budget of 1 USD reached'),
  too_large: () => new PayloadTooLargeError(),
  rate_limit: () => new RateLimitError('slow down', 7.2),
  upstream: () => new UpstreamError({ message: 'provider said 500', retryable: true, upstreamStatus: 500 }),
  upstream_429: () =>
    new UpstreamError({ message: 'provider rate limit', retryable: true, upstreamStatus: 429, retryAfterSeconds: 3 }),
  upstream_timeout: () => new UpstreamError({ message: 'provider timed out', retryable: true, timeout: true }),
  unavailable: () => new UnavailableError('draining', 'shutting_down'),
  bug: () => new TypeError("Cannot read properties of undefined (reading 'secretInternalDetail')"),
  http_error: () => Object.assign(new Error('I am a teapot'), { statusCode: 418 }),
  plugin_403: () => Object.assign(new Error('Forbidden by a plugin'), { statusCode: 403 }),
};

let app: FastifyInstance;
const logs = new LogCapture();
let ready = true;

beforeAll(async () => {
  app = await createServer({
    logLevel: 'info',
    bodyLimitBytes: 256,
    corsOrigins: [],
    version: 'test',
    logStream: logs,
  });
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get('/throw/:kind', { schema: { params: z.object({ kind: z.string() }) } }, async (request) => {
    throw THROWERS[request.params.kind]();
  });
  routes.post(
    '/echo',
    {
      schema: {
        body: z.strictObject({
          name: z.string().max(10),
          tags: z.array(z.string()).optional(),
          nested: z.object({ n: z.number() }).optional(),
        }),
      },
    },
    (request) => request.body,
  );
  routes.get(
    '/search',
    { schema: { querystring: z.strictObject({ limit: z.coerce.number().int().max(100).optional() }) } },
    (request) => request.query,
  );
  await app.register(healthRoutes, { readiness: async () => (ready ? [] : ['database (sqlite) unreachable']) });
});
afterAll(() => app.close());

async function send(path: string, init: RequestInit = {}) {
  const response = await injectFetch(app, path, init);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: JSON.parse(text) as { error: { type: string; code: string; message: string; param?: string } },
  };
}

const post = (body: string, contentType = 'application/json') =>
  send('/echo', { method: 'POST', headers: { 'content-type': contentType }, body });

describe('every error type maps to its status and the one body shape', () => {
  it.each([
    [
      'validation',
      400,
      { type: 'invalid_request_error', code: 'invalid_model', message: 'name: too long', param: 'name' },
    ],
    [
      'authentication',
      401,
      { type: 'authentication_error', code: 'invalid_credentials', message: 'Missing or invalid credentials' },
    ],
    ['permission', 403, { type: 'permission_error', code: 'insufficient_scope', message: 'not yours' }],
    ['not_found', 404, { type: 'not_found_error', code: 'run_not_found', message: 'No run "run_x"' }],
    ['conflict', 409, { type: 'conflict_error', code: 'invalid_run_state', message: 'run is not paused' }],
    ['budget', 402, { type: 'payment_required_error', code: 'budget_exceeded', message: 'budget of 1 USD reached' }],
    [
      'too_large',
      413,
      { type: 'payload_too_large_error', code: 'payload_too_large', message: 'Request body is too large' },
    ],
    ['rate_limit', 429, { type: 'rate_limit_error', code: 'rate_limited', message: 'slow down' }],
    ['upstream', 502, { type: 'upstream_error', code: 'upstream_error', message: 'provider said 500' }],
    ['upstream_429', 429, { type: 'rate_limit_error', code: 'upstream_rate_limited', message: 'provider rate limit' }],
    ['upstream_timeout', 504, { type: 'timeout_error', code: 'upstream_timeout', message: 'provider timed out' }],
    ['unavailable', 503, { type: 'unavailable_error', code: 'shutting_down', message: 'draining' }],
    ['bug', 500, { type: 'server_error', code: 'internal_error', message: 'Internal server error' }],
    ['http_error', 418, { type: 'invalid_request_error', code: 'invalid_request', message: 'I am a teapot' }],
    ['plugin_403', 403, { type: 'permission_error', code: 'invalid_request', message: 'Forbidden by a plugin' }],
  ])('%s → %i', async (kind, status, error) => {
    const answer = await send(`/throw/${kind}`);
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ error });
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.text).not.toMatch(/\n\s+at |\.ts:\d+/);
  });

  it('sets retry-after from rate-limit errors, rounded up', async () => {
    expect((await send('/throw/rate_limit')).headers.get('retry-after')).toBe('8');
    expect((await send('/throw/upstream_429')).headers.get('retry-after')).toBe('3');
  });

  it('logs a 500 with its stack, but the body only says "Internal server error"', async () => {
    const answer = await send('/throw/bug');
    expect(answer.text).not.toContain('secretInternalDetail');
    const requestId = answer.headers.get('x-request-id');
    const logged = logs.lines
      .map((line) => JSON.parse(line) as { msg: string; reqId?: string; err?: { stack?: string } })
      .find((line) => line.reqId === requestId && line.msg === 'request failed');
    expect(logged?.err?.stack).toContain('secretInternalDetail');
  });
});

describe('request bodies', () => {
  it('malformed JSON: 400 invalid_json', async () => {
    const answer = await post('{"name": ');
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_json' });
  });

  it('an empty body with a JSON content type is no body, not an error', async () => {
    const answer = await post('');
    expect(answer).toMatchObject({
      status: 400,
      body: {
        error: {
          code: 'invalid_request',
          message: expect.stringMatching(/^body: .*expected object, received (null|undefined)$/),
        },
      },
    });
    const bodiless = await send('/throw/not_found', { method: 'GET', headers: { 'content-type': 'application/json' } });
    expect(bodiless.status).toBe(404);
  });

  it('rejects prototype poisoning in JSON bodies', async () => {
    const answer = await post('{"name": "a", "__proto__": {"isAdmin": true}}');
    expect(answer.status).toBe(400);
  });

  it('a body over the limit: 413 payload_too_large', async () => {
    const answer = await post(JSON.stringify({ name: 'x'.repeat(300) }));
    expect(answer).toMatchObject({
      status: 413,
      body: {
        error: { type: 'payload_too_large_error', code: 'payload_too_large', message: 'Request body is too large' },
      },
    });
  });

  it('validation errors name the field, as message and as param', async () => {
    expect((await post(JSON.stringify({ name: 'far too long a name' }))).body.error).toMatchObject({
      code: 'invalid_request',
      param: 'name',
      message: expect.stringMatching(/^body\.name: /),
    });
    expect((await post(JSON.stringify({}))).body.error).toMatchObject({
      param: 'name',
      message: expect.stringMatching(/^body\.name: .*expected string/),
    });
    expect((await post(JSON.stringify({ name: 'a', tags: ['ok', 3] }))).body.error).toMatchObject({
      param: 'tags.1',
      message: expect.stringMatching(/^body\.tags\.1: /),
    });
    expect((await post(JSON.stringify({ name: 'a', nested: { n: 'x' } }))).body.error).toMatchObject({
      param: 'nested.n',
    });
    expect((await send('/search?limit=1000')).body.error).toMatchObject({
      param: 'limit',
      message: expect.stringMatching(/^querystring\.limit: /),
    });
  });

  it('unknown fields are named, each of them', async () => {
    const answer = await post(JSON.stringify({ name: 'a', colour: 'red', size: 2 }));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toEqual({
      type: 'invalid_request_error',
      code: 'invalid_request',
      message: 'body.colour: unknown field; body.size: unknown field',
      param: 'colour',
    });
  });

  it('a body of the wrong kind is described without an empty field name', async () => {
    const answer = await post('"just a string"');
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/^body: .*expected object/);
    expect(answer.body.error).not.toHaveProperty('param');
  });

  it('an unsupported content type: 415', async () => {
    const answer = await post('<name/>', 'application/xml');
    expect(answer).toMatchObject({
      status: 415,
      body: { error: { type: 'invalid_request_error', code: 'unsupported_media_type' } },
    });
  });
});

describe('request ids', () => {
  it('every response carries x-request-id; a generated one starts with req_', async () => {
    const answer = await send('/throw/not_found');
    expect(answer.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{24}$/);
  });

  it('an incoming x-request-id is kept and used in the logs', async () => {
    const answer = await send('/throw/not_found', { headers: { 'x-request-id': 'trace-abc-123' } });
    expect(answer.headers.get('x-request-id')).toBe('trace-abc-123');
    expect(logs.text).toContain('"reqId":"trace-abc-123"');
  });

  it('an x-request-id too long or outside letters, digits and _ . : - is replaced by a generated one', async () => {
    // A W3C traceparent or a UUID is kept; 10,000 characters or HTML is not copied to responses and logs.
    const kept = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    expect((await send('/throw/not_found', { headers: { 'x-request-id': kept } })).headers.get('x-request-id')).toBe(
      kept,
    );
    for (const hostile of ['x'.repeat(10_000), 'x'.repeat(129), '<script>alert(1)</script>', 'a b', 'id"quoted', '']) {
      const answer = await send('/throw/not_found', { headers: { 'x-request-id': hostile } });
      expect(answer.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{24}$/);
    }
    expect(logs.text).not.toContain('x'.repeat(129));
    expect(logs.text).not.toContain('<script>');
  });

  it('unknown routes answer 404 route_not_found', async () => {
    const answer = await send('/nowhere?x=1');
    expect(answer).toMatchObject({
      status: 404,
      body: { error: { type: 'not_found_error', code: 'route_not_found', message: 'No route GET /nowhere' } },
    });
  });
});

describe('readiness', () => {
  it('/readyz answers 503 with the reasons when a dependency is down', async () => {
    ready = false;
    try {
      const response = await injectFetch(app, '/readyz');
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ status: 'not_ready', reasons: ['database (sqlite) unreachable'] });
    } finally {
      ready = true;
    }
    expect((await injectFetch(app, '/readyz')).status).toBe(200);
  });
});
