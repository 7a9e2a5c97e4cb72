import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_YAML, startTestApp, TEST_API_KEY, type TestApp } from '../support/app.js';

// Errors Fastify used to answer itself, in its own shape (`{"error":"Bad Request","code":"FST_…"}`):
// every one now comes back as {"error": {type, code, message}} from the one error handler.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp(`${BASE_YAML}
server: { body_limit_bytes: 4096 }
webhooks:
  - { name: generic, verification: hmac-sha256, secret: framework-errors-secret }
`);
});
afterAll(() => app.stop());

const operator = { authorization: `Bearer ${TEST_API_KEY}` };

async function send(path: string, init: RequestInit = {}) {
  const response = await fetch(`${app.url}${path}`, { ...init, headers: { ...operator, ...init.headers } });
  const text = await response.text();
  expect(text).not.toContain('FST_');
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return { status: response.status, headers: response.headers, body: JSON.parse(text) as unknown };
}

/** Raw bytes on a socket, for requests fetch refuses to send; resolves with everything the server wrote. */
function sendRaw(bytes: string): Promise<string> {
  const { port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(bytes));
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('utf8')));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

/** Every route with a path parameter, as the running server documents it: `{id}`, `{name}`, `{run_id}`, ... */
async function parameterRoutes(): Promise<[string, string][]> {
  const document = (await (await fetch(`${app.url}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(document.paths)
    .filter(([path]) => path.includes('{'))
    .flatMap(([path, methods]) => Object.keys(methods).map((method): [string, string] => [method.toUpperCase(), path]));
}

describe('path problems on every {id} route and /webhooks/{name}', () => {
  it('covers the routes that take a path parameter', async () => {
    const routes = await parameterRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(20);
    expect(routes).toContainEqual(['POST', '/webhooks/{name}']);
    expect(routes).toContainEqual(['GET', '/api/v1/admin/runs/{run_id}']);
  });

  it('a path parameter over 100 characters is 414 path_parameter_too_long on each of them', async () => {
    for (const [method, route] of await parameterRoutes()) {
      const answer = await send(route.replace(/\{[^}]+\}/, 'x'.repeat(101)), { method });
      expect([method, route, answer.status, answer.body]).toEqual([
        method,
        route,
        414,
        {
          error: {
            type: 'invalid_request_error',
            code: 'path_parameter_too_long',
            message: 'A path parameter is longer than 100 characters',
          },
        },
      ]);
      expect(answer.headers.get('x-request-id')).toMatch(/^req_/);
    }
  });

  it('a percent-escape that is not UTF-8 is 400 invalid_url on each of them', async () => {
    for (const [method, route] of await parameterRoutes()) {
      const answer = await send(route.replace(/\{[^}]+\}/, '%ED%A0%80'), { method });
      expect([method, route, answer.status, answer.body]).toEqual([
        method,
        route,
        400,
        {
          error: {
            type: 'invalid_request_error',
            code: 'invalid_url',
            message: 'The URL path is not valid: a %-escape does not decode to UTF-8',
          },
        },
      ]);
    }
  });
});

describe('unknown routes and methods', () => {
  it('an unknown path is 404 route_not_found', async () => {
    expect(await send('/api/v1/nothing-here')).toEqual({
      status: 404,
      headers: expect.anything(),
      body: {
        error: { type: 'not_found_error', code: 'route_not_found', message: 'No route GET /api/v1/nothing-here' },
      },
    });
  });

  it('a known path with another method is 405 method_not_allowed with Allow', async () => {
    const answer = await send('/v1/chat/completions', { method: 'PUT' });
    expect(answer.status).toBe(405);
    expect(answer.body).toEqual({
      error: {
        type: 'invalid_request_error',
        code: 'method_not_allowed',
        message: 'PUT is not allowed on /v1/chat/completions; use POST',
      },
    });
    expect(answer.headers.get('allow')).toBe('POST');
    const token = await send('/gateway/tokens/tok_x/revoke', { method: 'GET' });
    expect(token).toMatchObject({ status: 405, body: { error: { code: 'method_not_allowed' } } });
    // Without credentials too: like a 404, it holds nothing to protect.
    const webhook = await fetch(`${app.url}/webhooks/generic`);
    expect(webhook.status).toBe(405);
    expect(webhook.headers.get('allow')).toBe('POST');
  });
});

describe('bodies Fastify refuses', () => {
  const post = (body: string, contentType: string) =>
    send('/gateway/tokens', { method: 'POST', body, headers: { 'content-type': contentType } });

  it('an unsupported content type is 415 unsupported_media_type', async () => {
    expect(await post('<token/>', 'application/xml')).toMatchObject({
      status: 415,
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'unsupported_media_type',
          message: 'Unsupported Content-Type: send the body as application/json',
        },
      },
    });
  });

  it('malformed JSON is 400 invalid_json in our words', async () => {
    expect(await post('{"agent_name": ', 'application/json')).toMatchObject({
      status: 400,
      body: {
        error: { type: 'invalid_request_error', code: 'invalid_json', message: 'The request body is not valid JSON' },
      },
    });
  });

  it('an empty JSON body on a route that needs one is 400 naming the body', async () => {
    expect(await post('', 'application/json')).toMatchObject({
      status: 400,
      body: {
        error: { type: 'invalid_request_error', code: 'invalid_request', message: expect.stringMatching(/^body: /) },
      },
    });
  });

  it('a body over the limit is 413, on the API and on a webhook', async () => {
    const big = JSON.stringify({ padding: 'x'.repeat(5000) });
    const expected = {
      status: 413,
      body: {
        error: { type: 'payload_too_large_error', code: 'payload_too_large', message: 'Request body is too large' },
      },
    };
    expect(await post(big, 'application/json')).toMatchObject(expected);
    expect(
      await send('/webhooks/generic', { method: 'POST', body: big, headers: { 'content-type': 'application/json' } }),
    ).toMatchObject(expected);
  });
});

describe('HTTP the server cannot parse', () => {
  const parse = (raw: string) => {
    const [head, body] = raw.split('\r\n\r\n');
    expect(head).toMatch(/content-type: application\/json; charset=utf-8/i);
    expect(head).toMatch(/connection: close/i);
    return { statusLine: head.split('\r\n')[0], body: JSON.parse(body) as unknown };
  };

  it('a malformed request line is 400 malformed_request', async () => {
    expect(parse(await sendRaw('THIS IS NOT HTTP\r\n\r\n'))).toEqual({
      statusLine: 'HTTP/1.1 400 Bad Request',
      body: {
        error: { type: 'invalid_request_error', code: 'malformed_request', message: 'The request is not valid HTTP' },
      },
    });
  });

  it('headers over the size limit are 431 headers_too_large', async () => {
    const raw = await sendRaw(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(parse(raw)).toEqual({
      statusLine: 'HTTP/1.1 431 Request Header Fields Too Large',
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'headers_too_large',
          message: 'The request headers are too large',
        },
      },
    });
  });
});
