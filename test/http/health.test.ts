import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_YAML, startTestApp, type TestApp } from '../support/app.js';

describe('health and API docs', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(BASE_YAML, { listen: false });
  });
  afterAll(() => app.stop());

  it('answers /healthz and /readyz without credentials', async () => {
    expect(await (await app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await app.inject('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });

  it('serves an OpenAPI 3.1 document and the rendered reference without credentials', async () => {
    const doc = (await (await app.inject('/openapi.json')).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain('/gateway/tokens');
    const docs = await app.inject('/docs/');
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger');
  });

  it('serves the UI through its first-use loader: assets, the same document, and our 404 under /docs', async () => {
    const asset = await app.inject('/docs/static/swagger-ui-bundle.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('x-request-id')).toMatch(/^req_/);
    expect((await asset.text()).length).toBeGreaterThan(100_000);
    const [fromUi, fromApi] = await Promise.all(
      ['/docs/json', '/openapi.json'].map(async (path) => (await app.inject(path)).json()),
    );
    expect(fromUi).toEqual(fromApi);
    const missing = await app.inject('/docs/nope');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      error: { type: 'not_found_error', code: 'route_not_found', message: 'No route GET /docs/nope' },
    });
  });

  it('returns the error shape for unknown routes and echoes a request id', async () => {
    const response = await app.inject('/nope', { headers: { 'x-api-key': 'test-api-key-0123456789' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(await response.json()).toEqual({
      error: { type: 'not_found_error', code: 'route_not_found', message: 'No route GET /nope' },
    });
  });
});
