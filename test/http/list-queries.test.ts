import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_API_KEY } from '../support/app.js';
import { injectFetch } from '../support/inject.js';
import { startAutopilot, type AutopilotHarness } from '../autopilot/autopilot-harness.js';
import { json, VENDOR_WATCH } from '../autopilot/blueprints.js';

/** Every list route takes limit/offset the same way and refuses what it does not know (issue 22). */
const LIST_ROUTES = [
  '/api/v1/admin/agents',
  '/api/v1/admin/runs',
  '/api/v1/admin/sessions',
  '/api/v1/admin/triggers',
  '/api/v1/admin/triggers/deliveries',
  '/gateway/tokens',
  '/api/v1/tools',
  '/api/v1/autopilot/missions',
];

const BAD_QUERIES: [string, string][] = [
  ['limit=-1', 'querystring.limit'],
  ['limit=abc', 'querystring.limit'],
  ['limit=0', 'querystring.limit'],
  ['limit=501', 'querystring.limit'],
  ['limit=2.5', 'querystring.limit'],
  ['offset=-1', 'querystring.offset'],
  ['offset=1e300', 'querystring.offset'],
  ['offset=abc', 'querystring.offset'],
  ['page=2', 'querystring.page'],
  ['limit=5&sort=desc', 'querystring.sort'],
];

let h: AutopilotHarness;
const headers = {
  authorization: `Bearer ${TEST_API_KEY}`,
  'content-type': 'application/json',
  'x-project-id': 'paging',
};
const get = async (path: string) => {
  const response = await injectFetch(h.app.server, path, { headers });
  return { status: response.status, body: (await response.json()) as any };
};
const post = (path: string, body: unknown, extra: Record<string, string> = {}) =>
  injectFetch(h.app.server, path, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });

beforeAll(async () => {
  h = await startAutopilot();
});
afterAll(() => h.stop());

describe('list routes: limit, offset and unknown parameters', () => {
  for (const route of LIST_ROUTES) {
    it(`${route} refuses bad paging and unknown parameters with 400 naming the field`, async () => {
      expect((await get(route)).status).toBe(200);
      expect((await get(`${route}?limit=500&offset=0`)).status).toBe(200);
      for (const [query, field] of BAD_QUERIES) {
        const answer = await get(`${route}?${query}`);
        expect(answer.status, `${route}?${query}`).toBe(400);
        expect(answer.body.error, `${route}?${query}`).toMatchObject({
          type: 'invalid_request_error',
          code: 'invalid_request',
          message: expect.stringContaining(field),
        });
      }
    });
  }
});

describe('list routes page with limit and offset', () => {
  const ids = (items: Record<string, string>[], key: string) => items.map((item) => item[key]);

  it('missions: newest first, a page at a time', async () => {
    expect((await post('/api/v1/autopilot/enable', { tier: 'free' })).status).toBe(200);
    const created: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const response = await post('/api/v1/autopilot/missions', {
        blueprint_json: json(VENDOR_WATCH),
        slots: { vendors: [`v${i}`], schedule: '0 9 * * 1' },
      });
      created.push(((await response.json()) as { mission_id: string }).mission_id);
    }
    const all = ids((await get('/api/v1/autopilot/missions')).body, 'mission_id');
    expect(all).toEqual([...created].reverse());
    expect(ids((await get('/api/v1/autopilot/missions?limit=2')).body, 'mission_id')).toEqual(all.slice(0, 2));
    expect(ids((await get('/api/v1/autopilot/missions?limit=2&offset=2')).body, 'mission_id')).toEqual(all.slice(2));
    expect((await get('/api/v1/autopilot/missions?offset=3')).body).toEqual([]);
  });

  it('sessions: most recent first, a page at a time', async () => {
    for (const id of ['page-a', 'page-b', 'page-c']) {
      await post(
        '/v1/chat/completions',
        { model: 'helper', messages: [{ role: 'user', content: 'hi' }] },
        { 'x-session-id': id },
      );
    }
    const all = ids((await get('/api/v1/admin/sessions')).body, 'session_id');
    expect(all).toHaveLength(3);
    expect(ids((await get('/api/v1/admin/sessions?limit=1&offset=1')).body, 'session_id')).toEqual([all[1]]);
    expect(ids((await get('/api/v1/admin/sessions?offset=2')).body, 'session_id')).toEqual([all[2]]);
  });

  it('tokens and agents: a page at a time', async () => {
    for (let i = 0; i < 3; i += 1) await post('/gateway/tokens', { agent_name: 'helper' });
    const all = ids((await get('/gateway/tokens')).body, 'token_id');
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(ids((await get('/gateway/tokens?limit=2&offset=1')).body, 'token_id')).toEqual(all.slice(1, 3));
    const agents = ids((await get('/api/v1/admin/agents')).body, 'name');
    expect(ids((await get('/api/v1/admin/agents?limit=1&offset=1')).body, 'name')).toEqual(agents.slice(1, 2));
  });
});
