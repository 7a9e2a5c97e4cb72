import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolRegistry, ToolExecutionError, type ToolRegistry } from '../../src/tools/index.js';
import { json, startLoopbackServer, type LoopbackServer } from './support/loopback-server.js';
import { toolsConfig } from './support/tools-config.js';

describe('HTTP tools from config', () => {
  let upstream: LoopbackServer;
  let registry: ToolRegistry;

  beforeAll(async () => {
    upstream = await startLoopbackServer();
    upstream.route('/weather/New%20York%2FNY', (request, response) =>
      json(response, 200, { ok: true, query: request.url.split('?')[1] ?? '' }),
    );
    upstream.route('/orders', (request, response) =>
      json(response, 201, { received: JSON.parse(request.body) as unknown }),
    );
    upstream.route('/broken', (_request, response) => json(response, 503, { error: 'down for maintenance' }));
    upstream.route('/huge', (_request, response) =>
      response.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(100_000)),
    );
    upstream.route('/hang', () => undefined);
    registry = await createToolRegistry({
      config: toolsConfig([
        {
          name: 'weather',
          description: 'Weather for a city',
          url: `${upstream.origin}/weather/{{city}}`,
          allow_private: ['127.0.0.1'],
          headers: { 'X-Api-Key': 'from-env-secret' },
          parameters: {
            type: 'object',
            properties: {
              city: { type: 'string' },
              days: { type: 'integer' },
              tags: { type: 'array', items: { type: 'string' } },
            },
            required: ['city'],
          },
        },
        {
          name: 'create_order',
          url: `${upstream.origin}/orders`,
          allow_private: ['127.0.0.1'],
          method: 'POST',
          parameters: {
            type: 'object',
            properties: { item: { type: 'string' }, quantity: { type: 'integer', minimum: 1 } },
            required: ['item', 'quantity'],
          },
        },
        { name: 'broken', url: `${upstream.origin}/broken`, allow_private: ['127.0.0.1'] },
        { name: 'huge', url: `${upstream.origin}/huge`, allow_private: ['127.0.0.1'] },
        { name: 'hang', url: `${upstream.origin}/hang`, timeout_ms: 100, allow_private: ['127.0.0.1'] },
        { name: 'hang_long', url: `${upstream.origin}/hang`, timeout_ms: 60_000, allow_private: ['127.0.0.1'] },
      ]),
    });
  });

  afterAll(async () => {
    await registry.close();
    await upstream.close();
  });

  it('lists the tool as declared', () => {
    expect(registry.get('weather')).toMatchObject({
      name: 'weather',
      description: 'Weather for a city',
      parameters: { required: ['city'] },
    });
    expect(registry.get('broken')).toEqual({
      name: 'broken',
      description: '',
      parameters: { type: 'object', properties: {} },
    });
  });

  it('fills the URL template URL-encoded, sends the other arguments as query and the configured headers', async () => {
    const result = await registry.execute('weather', { city: 'New York/NY', days: 3, tags: ['a b', 'c'] });
    expect(JSON.parse(result)).toEqual({ ok: true, query: 'days=3&tags=a+b&tags=c' });
    const request = upstream.requests.at(-1)!;
    expect(request.method).toBe('GET');
    expect(request.headers['x-api-key']).toBe('from-env-secret');
  });

  it('sends the arguments as a JSON body for POST', async () => {
    const result = await registry.execute('create_order', '{"item":"tea","quantity":2}');
    expect(JSON.parse(result)).toEqual({ received: { item: 'tea', quantity: 2 } });
    expect(upstream.requests.at(-1)!.headers['content-type']).toBe('application/json');
  });

  it('validates arguments before calling, naming the field', async () => {
    const before = upstream.requests.length;
    const error = await registry.execute('create_order', { item: 'tea', quantity: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect(error).toMatchObject({
      code: 'invalid_arguments',
      message: 'Invalid arguments for tool "create_order": quantity: must be >= 1',
    });
    expect(upstream.requests.length).toBe(before);
  });

  it('reports a non-2xx answer as a failure with its status and body', async () => {
    await expect(registry.execute('broken', {})).rejects.toMatchObject({
      code: 'failed',
      message: expect.stringMatching(/HTTP 503: .*down for maintenance/),
    });
  });

  it('cuts a huge body', async () => {
    const result = await registry.execute('huge', {});
    expect(result.length).toBeLessThan(40_000);
    expect(result).toMatch(/\[response cut at 32768 bytes\]$/);
  });

  it('times out with its configured timeout', async () => {
    await expect(registry.execute('hang', {})).rejects.toMatchObject({
      name: 'ToolExecutionError',
      code: 'timeout',
      message: 'Tool "hang" timed out after 100 ms',
    });
  });

  it('honours the caller’s AbortSignal', async () => {
    const controller = new AbortController();
    const pending = registry.execute('hang_long', {}, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
    await expect(registry.execute('hang_long', {}, { signal: controller.signal })).rejects.toMatchObject({
      code: 'aborted',
    });
  });

  it('reports an unreachable endpoint as a ToolExecutionError', async () => {
    const closed = await startLoopbackServer();
    await closed.close();
    const lonely = await createToolRegistry({
      config: toolsConfig([{ name: 'gone', url: `${closed.origin}/x`, allow_private: ['127.0.0.1'] }]),
    });
    await expect(lonely.execute('gone', {})).rejects.toMatchObject({
      name: 'ToolExecutionError',
      code: 'failed',
      message: expect.stringContaining('ECONNREFUSED'),
    });
  });
});
