import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { BASE_YAML, startTestApp, TEST_API_KEY, type TestApp } from '../support/app.js';

const EVIL = 'https://evil.example';
const DASHBOARD = 'https://dashboard.example';

/** State changes authenticated by the service_auth cookie must come from our own pages (issue 22). */
describe('service_auth cookie and cross-site requests', () => {
  let app: TestApp;
  const cookie = `service_auth=${TEST_API_KEY}`;
  beforeAll(async () => {
    app = await startTestApp(`${BASE_YAML}\nserver: { cors: { origins: ["${DASHBOARD}"] } }\n`);
  });
  afterAll(() => app.stop());

  const newToken = async () => {
    const response = await fetch(`${app.url}/gateway/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ agent_name: 'helper' }),
    });
    return ((await response.json()) as { token_id: string }).token_id;
  };
  const tokenStatus = async (id: string) => {
    const list = (await (
      await fetch(`${app.url}/gateway/tokens`, { headers: { authorization: `Bearer ${TEST_API_KEY}` } })
    ).json()) as { token_id: string; status: string }[];
    return list.find((token) => token.token_id === id)?.status;
  };
  const post = (path: string, headers: Record<string, string>, body?: string) =>
    fetch(`${app.url}${path}`, { method: 'POST', headers, body });
  const expectRefused = async (response: Response, code: string) => {
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: { type: 'permission_error', code, message: expect.any(String) } });
  };

  it('refuses the defect requests: cookie, evil Origin, text/plain (revoke and autopilot disable), and changes nothing', async () => {
    const id = await newToken();
    await expectRefused(
      await post(`/gateway/tokens/${id}/revoke`, { cookie, origin: EVIL, 'content-type': 'text/plain' }, '{}'),
      'cookie_request_not_json',
    );
    await expectRefused(
      await post('/api/v1/autopilot/disable', { cookie, origin: EVIL, 'content-type': 'text/plain' }, 'x'),
      'cookie_request_not_json',
    );
    expect(await tokenStatus(id)).toBe('active');
  });

  it('refuses a JSON request from another origin, or without Origin and Referer', async () => {
    const id = await newToken();
    await expectRefused(
      await post(`/gateway/tokens/${id}/revoke`, { cookie, origin: EVIL, 'content-type': 'application/json' }, '{}'),
      'cross_origin_request',
    );
    await expectRefused(
      await post(`/gateway/tokens/${id}/revoke`, { cookie, referer: `${EVIL}/page` }),
      'cross_origin_request',
    );
    await expectRefused(
      await post(`/gateway/tokens/${id}/revoke`, { cookie, origin: 'null' }),
      'cookie_request_without_origin',
    );
    await expectRefused(await post('/api/v1/autopilot/disable', { cookie }), 'cookie_request_without_origin');
    expect(await tokenStatus(id)).toBe('active');
  });

  it('accepts the same requests from the server’s own origin or an allowed one, with JSON', async () => {
    const id = await newToken();
    const own = new URL(app.url).origin;
    const revoked = await post(
      `/gateway/tokens/${id}/revoke`,
      { cookie, origin: own, 'content-type': 'application/json' },
      '{}',
    );
    expect(revoked.status).toBe(200);
    expect(await tokenStatus(id)).toBe('revoked');
    expect((await post('/api/v1/autopilot/disable', { cookie, origin: DASHBOARD })).status).toBe(200);
    expect((await post('/api/v1/autopilot/disable', { cookie, referer: `${own}/ui/settings` })).status).toBe(200);
  });

  it('leaves header-authenticated requests alone, whatever their Origin and content type', async () => {
    const id = await newToken();
    const response = await post(
      `/gateway/tokens/${id}/revoke`,
      { authorization: `Bearer ${TEST_API_KEY}`, origin: EVIL, 'content-type': 'text/plain' },
      '{}',
    );
    expect(response.status).toBe(200);
    expect(await tokenStatus(id)).toBe('revoked');
    expect((await post('/api/v1/autopilot/disable', { 'x-api-key': TEST_API_KEY, origin: EVIL })).status).toBe(200);
  });

  it('still lets a cookie read (GET) from anywhere, since reads change nothing', async () => {
    expect((await fetch(`${app.url}/gateway/tokens`, { headers: { cookie, origin: EVIL } })).status).toBe(200);
  });

  it('refuses a cookie-authenticated WebSocket opened by another site', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(`${app.url.replace('http', 'ws')}/agui/ws?agent_name=helper`, {
        headers: { cookie, origin: EVIL },
      });
      socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.on('open', () => {
        socket.close();
        resolve(101);
      });
      socket.on('error', reject);
    });
    expect(status).toBe(403);
  });
});
