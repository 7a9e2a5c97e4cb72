import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_YAML, startTestApp, TEST_API_KEY, type TestApp } from '../support/app.js';

const preflight = (app: TestApp, origin: string) =>
  app.inject('/gateway/tokens', {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type,x-api-key',
    },
  });

const get = (app: TestApp, origin: string) =>
  app.inject('/gateway/tokens', { headers: { origin, 'x-api-key': TEST_API_KEY } });

describe('CORS is off by default', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(BASE_YAML, { listen: false });
  });
  afterAll(() => app.stop());

  it('sends no CORS headers on requests or preflights', async () => {
    const response = await get(app, 'http://ui.example');
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const options = await preflight(app, 'http://ui.example');
    expect(options.headers.get('access-control-allow-origin')).toBeNull();
    expect(options.headers.get('access-control-allow-methods')).toBeNull();
  });
});

describe('CORS with configured origins', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(
      `server:\n  cors: { origins: ["http://ui.example", "https://admin.example"] }\n${BASE_YAML}`,
      { listen: false },
    );
  });
  afterAll(() => app.stop());

  it('allows a configured origin, with credentials', async () => {
    const response = await get(app, 'https://admin.example');
    expect(response.headers.get('access-control-allow-origin')).toBe('https://admin.example');
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    // The session and run ids a chat answer carries must be readable by the page that sent it.
    expect(response.headers.get('access-control-expose-headers')?.split(/,\s*/)).toEqual(
      expect.arrayContaining(['x-session-id', 'x-run-id', 'x-request-id', 'retry-after']),
    );
  });

  it('answers a preflight without credentials (browsers send none)', async () => {
    const response = await preflight(app, 'http://ui.example');
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://ui.example');
    expect(response.headers.get('access-control-allow-headers')).toBe('content-type,x-api-key');
  });

  it('does not allow other origins', async () => {
    const response = await get(app, 'http://evil.example');
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect((await preflight(app, 'http://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('still requires credentials on the request itself', async () => {
    const response = await app.inject('/gateway/tokens', { headers: { origin: 'http://ui.example' } });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://ui.example');
  });

  it('answers an unknown path 404, as without CORS (its preflight route is no method of every path)', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const response = await app.inject('/no/such/path', { method, headers: { 'x-api-key': TEST_API_KEY } });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: 'route_not_found' } });
      expect(response.headers.get('allow')).toBeNull();
    }
    // A known path with a wrong method is still a 405 naming its methods.
    const wrong = await app.inject('/gateway/tokens', { method: 'PUT', headers: { 'x-api-key': TEST_API_KEY } });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).not.toContain('OPTIONS');
  });
});
