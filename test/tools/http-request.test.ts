import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolRegistry, type ToolRegistry } from '../../src/tools/index.js';
import { startLoopbackServer, type LoopbackServer } from './support/loopback-server.js';
import { toolsConfig } from './support/tools-config.js';

describe('http_request', () => {
  let allowed: LoopbackServer;
  let other: LoopbackServer;
  let registry: ToolRegistry;

  beforeAll(async () => {
    allowed = await startLoopbackServer();
    other = await startLoopbackServer();
    allowed.route('/hello', (_request, response) =>
      response.writeHead(200, { 'content-type': 'text/plain' }).end('hi there'),
    );
    allowed.route('/echo', (request, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          method: request.method,
          body: request.body,
          type: request.headers['content-type'] ?? null,
          x: request.headers['x-test'] ?? null,
        }),
      ),
    );
    allowed.route('/missing', (_request, response) => response.writeHead(404).end('not here'));
    allowed.route('/big', (_request, response) => response.writeHead(200).end('é'.repeat(50_000)));
    allowed.route('/inside', (_request, response) => response.writeHead(302, { location: '/hello' }).end());
    allowed.route('/outside', (_request, response) =>
      response.writeHead(302, { location: `${other.origin}/secret` }).end(),
    );
    other.route('/secret', (_request, response) => response.writeHead(200).end('secret'));
    // Only the first server's port: the second listens on the same host.
    registry = await createToolRegistry({
      config: toolsConfig([
        { builtin: 'http_request', allowed_hosts: [`127.0.0.1:${allowed.port}`], allow_private: ['127.0.0.1/32'] },
      ]),
    });
  });

  afterAll(async () => {
    await registry.close();
    await allowed.close();
    await other.close();
  });

  const call = async (args: unknown) =>
    JSON.parse(await registry.execute('http_request', args)) as Record<string, unknown>;

  it('refuses every host when no allow-list is configured', async () => {
    const bare = await createToolRegistry({ config: [] });
    await expect(bare.execute('http_request', { url: `${allowed.origin}/hello` })).rejects.toMatchObject({
      code: 'invalid_arguments',
      message: expect.stringContaining('no allowed_hosts configured'),
    });
    expect(allowed.requests.length).toBe(0);
  });

  it('refuses hosts outside the allow-list without calling them', async () => {
    await expect(registry.execute('http_request', { url: `${other.origin}/secret` })).rejects.toMatchObject({
      code: 'invalid_arguments',
      message: expect.stringContaining('is not allowed'),
    });
    expect(other.requests.length).toBe(0);
  });

  it('GETs an allowed host and returns status and body', async () => {
    expect(await call({ url: `${allowed.origin}/hello` })).toMatchObject({
      status: 200,
      body: 'hi there',
      content_type: 'text/plain',
    });
    expect(await call({ url: `${allowed.origin}/missing` })).toMatchObject({ status: 404, body: 'not here' });
  });

  it('POSTs a JSON object body with headers', async () => {
    const result = await call({
      url: `${allowed.origin}/echo`,
      method: 'POST',
      headers: { 'X-Test': 'yes' },
      body: { a: 1 },
    });
    expect(JSON.parse(result.body as string)).toEqual({
      method: 'POST',
      body: '{"a":1}',
      type: 'application/json',
      x: 'yes',
    });
  });

  it('follows redirects only within the allow-list', async () => {
    expect(await call({ url: `${allowed.origin}/inside` })).toMatchObject({
      status: 200,
      body: 'hi there',
      url: `${allowed.origin}/hello`,
    });
    await expect(registry.execute('http_request', { url: `${allowed.origin}/outside` })).rejects.toMatchObject({
      code: 'failed',
      message: expect.stringContaining('redirected to host'),
    });
    expect(other.requests.length).toBe(0);
  });

  it('cuts large bodies and says so', async () => {
    const result = await call({ url: `${allowed.origin}/big` });
    expect(result.truncated).toBe(true);
    expect(Buffer.byteLength(result.body as string)).toBeLessThanOrEqual(32_768);
    expect(result.body as string).not.toContain('\uFFFD');
  });

  it('validates its arguments', async () => {
    await expect(registry.execute('http_request', { method: 'DELETE' })).rejects.toMatchObject({
      code: 'invalid_arguments',
      message: expect.stringMatching(/url: is required.*method: must be one of "GET", "POST"/),
    });
    await expect(registry.execute('http_request', { url: 'file:///etc/passwd' })).rejects.toMatchObject({
      code: 'invalid_arguments',
    });
  });
});
