import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_YAML, startTestApp, type TestApp } from '../support/app.js';

describe('health and API docs', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(BASE_YAML);
  });
  afterAll(() => app.stop());

  it('answers /healthz and /readyz without credentials', async () => {
    expect(await (await fetch(`${app.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${app.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });

  it('serves an OpenAPI 3.1 document and the rendered reference without credentials', async () => {
    const doc = (await (await fetch(`${app.url}/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain('/gateway/tokens');
    const docs = await fetch(`${app.url}/docs/`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger');
  });

  it('serves the UI through its first-use loader: assets, the same document, and our 404 under /docs', async () => {
    const asset = await fetch(`${app.url}/docs/static/swagger-ui-bundle.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('x-request-id')).toMatch(/^req_/);
    expect((await asset.text()).length).toBeGreaterThan(100_000);
    const [fromUi, fromApi] = await Promise.all(
      [`${app.url}/docs/json`, `${app.url}/openapi.json`].map(async (url) => (await fetch(url)).json()),
    );
    expect(fromUi).toEqual(fromApi);
    const missing = await fetch(`${app.url}/docs/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      error: { type: 'not_found_error', code: 'route_not_found', message: 'No route GET /docs/nope' },
    });
  });

  it('returns the error shape for unknown routes and echoes a request id', async () => {
    const response = await fetch(`${app.url}/nope`, { headers: { 'x-api-key': 'test-api-key-0123456789' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(await response.json()).toEqual({
      error: { type: 'not_found_error', code: 'route_not_found', message: 'No route GET /nope' },
    });
  });
});
