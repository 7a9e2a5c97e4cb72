import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticator } from '../../src/auth/index.js';
import { createLoginCodeStore, dashboardRoutes, LOGIN_CODE_TTL_MS } from '../../src/dashboard/index.js';
import { createServer } from '../../src/http/index.js';
import { BASE_YAML, startTestApp, TEST_API_KEY, type TestApp } from '../support/app.js';

describe('the dashboard routes name their catalog codes', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(BASE_YAML);
  });
  afterAll(() => app.stop());

  it('credential_not_in_header: a login code asked for by a browser signed in with the cookie only', async () => {
    const signedIn = await fetch(`${app.url}/api/v1/ui/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app.url },
      body: JSON.stringify({ credential: TEST_API_KEY }),
    });
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0];
    expect(cookie).toBe(`service_auth=${TEST_API_KEY}`);
    const issued = await fetch(`${app.url}/api/v1/ui/login-codes`, {
      method: 'POST',
      headers: { cookie, origin: app.url, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(issued.status).toBe(400);
    expect(await issued.json()).toMatchObject({ error: { code: 'credential_not_in_header' } });
  });

  describe('a gateway whose dashboard was never built', () => {
    let server: FastifyInstance;
    let base: string;
    const empty = mkdtempSync(join(tmpdir(), 'agent-gateway-no-ui-'));
    beforeAll(async () => {
      // The dashboard's routes as the app mounts them, over a build directory with nothing in it.
      server = await createServer({
        logLevel: 'silent',
        bodyLimitBytes: 1024 * 1024,
        corsOrigins: [],
        version: 'test',
      });
      const authenticator = createAuthenticator({
        config: app.config.auth,
        apiKeys: [TEST_API_KEY],
        tokens: app.tokens,
      });
      await server.register(dashboardRoutes, {
        authenticator,
        cookiePolicy: { allowedOrigins: [] },
        loginCodes: createLoginCodeStore(app.database.db, { ttlMs: LOGIN_CODE_TTL_MS }),
        root: empty,
      });
      base = await server.listen({ host: '127.0.0.1', port: 0 });
    });
    afterAll(async () => {
      await server?.close();
      rmSync(empty, { recursive: true, force: true });
    });

    it('ui_not_built: /ui answers 503 saying how to build it, in the error shape', async () => {
      for (const path of ['/ui', '/ui/runs/run_1']) {
        const response = await fetch(`${base}${path}`);
        expect(response.status, path).toBe(503);
        expect(await response.json()).toMatchObject({
          error: {
            type: 'unavailable_error',
            code: 'ui_not_built',
            message: expect.stringContaining('npm run build:ui'),
          },
        });
      }
    });
  });
});
