import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectFetch } from '../support/inject.js';
import { startAutopilot, type AutopilotHarness } from './autopilot-harness.js';

let h: AutopilotHarness;
beforeAll(async () => {
  h = await startAutopilot();
});
afterAll(() => h.stop());

describe('autopilot status and tiers', () => {
  it('starts disabled with an instance id that survives a restart', async () => {
    const first = await h.api('GET', '/status');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      enabled: false,
      tier: 'anonymous',
      quota: null,
      service_url: h.service.url,
      enrolled: false,
    });
    expect(first.body.instance_id).toMatch(/^inst_[0-9a-f]{24}$/);
    await h.restart();
    expect((await h.api('GET', '/status')).body.instance_id).toBe(first.body.instance_id);
  });

  it('enable takes a tier and answers 200 {ok: true}; other tiers are 400', async () => {
    for (const tier of ['skip', 'free', 'anonymous']) {
      expect(await h.api('POST', '/enable', { tier })).toEqual({ status: 200, body: { ok: true } });
      expect((await h.api('GET', '/status')).body).toMatchObject({ enabled: true, tier });
    }
    const bad = await h.api('POST', '/enable', { tier: 'gold' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.type).toBe('invalid_request_error');
    expect((await h.api('POST', '/enable', {})).status).toBe(400);
  });

  it('refuses new goals with 409 while disabled, and accepts them again once enabled', async () => {
    expect(await h.api('POST', '/disable')).toEqual({ status: 200, body: { ok: true } });
    expect((await h.api('GET', '/status')).body.enabled).toBe(false);
    const refused = await h.api('POST', '/goal', { goal: 'watch prices' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('autopilot_disabled');
    expect((await h.api('POST', '/missions', { blueprint_json: '{}' })).status).toBe(409);
    await h.api('POST', '/enable', { tier: 'skip' });
    expect((await h.api('POST', '/goal', { goal: 'watch prices' })).body).toEqual({
      kind: 'synthesis_needed',
      goal: 'watch prices',
      reason: 'tier_skip',
      skipped: [],
    });
  });

  it('is for operators only: no credentials 401, the service_auth cookie works, access tokens get 403', async () => {
    const bare = await injectFetch(h.app.server, '/api/v1/autopilot/status');
    expect(bare.status).toBe(401);
    const cookie = await injectFetch(h.app.server, '/api/v1/autopilot/status', {
      headers: { cookie: 'service_auth=test-api-key-0123456789' },
    });
    expect(cookie.status).toBe(200);
    const token = await injectFetch(h.app.server, '/gateway/tokens', {
      method: 'POST',
      headers: { authorization: 'Bearer test-api-key-0123456789', 'content-type': 'application/json' },
      body: JSON.stringify({ agent_name: 'helper', scopes: ['chat', 'tools', 'a2a'] }),
    });
    const { token: sat } = (await token.json()) as { token: string };
    const denied = await h.api('GET', '/status', undefined, { headers: { authorization: `Bearer ${sat}` } });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('operator_only');
  });

  it('rejects a malformed X-Project-ID with 400', async () => {
    const answer = await h.api('GET', '/missions', undefined, { project: 'no spaces allowed' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('invalid_project_id');
  });
});
