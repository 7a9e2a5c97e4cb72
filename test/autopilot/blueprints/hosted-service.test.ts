import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signRequest } from '../../../src/autopilot/index.js';
import { startAutopilot, type AutopilotHarness } from '../autopilot-harness.js';
import { json, scored, VENDOR_WATCH } from '../blueprints.js';

let h: AutopilotHarness;
beforeAll(async () => {
  h = await startAutopilot({ autopilot: ['cache_ttl_seconds: 600', 'cache_stale_seconds: 600'] });
  await h.api('POST', '/enable', { tier: 'anonymous' });
});
afterAll(() => h.stop());

const goal = (text: string) => h.api('POST', '/goal', { goal: text });

describe('the hosted blueprint service client', () => {
  it('enrolls once, then signs every call so that the service verifies it', async () => {
    h.service.candidates = () => scored(0.7);
    await goal('first signed goal');
    await goal('second signed goal');
    expect(h.service.enrollments).toBe(1);
    expect(h.service.calls('/v1/instances/enroll')[0].body).toEqual({
      instance_id: (await h.api('GET', '/status')).body.instance_id,
    });
    const retrieves = h.service.calls('/v1/blueprints/retrieve');
    expect(retrieves.map((request) => request.body)).toEqual([
      { goal: 'first signed goal', k: 5 },
      { goal: 'second signed goal', k: 5 },
    ]);
    expect(retrieves.every((request) => request.signed && request.verified)).toBe(true);
    expect(h.service.rejected).toBe(0);
    expect((await h.api('GET', '/status')).body.enrolled).toBe(true);
  });

  it('the fake service rejects a bad signature (it checks what our signer computes)', async () => {
    const timestamp = '2026-11-23T08:00:00.000Z';
    const body = JSON.stringify({ goal: 'x', k: 5 });
    const forged = signRequest({
      method: 'POST',
      path: '/v1/blueprints/retrieve',
      timestamp,
      body,
      secretHex: '00'.repeat(32),
    });
    const instanceId = (await h.api('GET', '/status')).body.instance_id;
    const response = await fetch(`${h.service.url}/v1/blueprints/retrieve`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-service-instance': instanceId,
        'x-service-timestamp': timestamp,
        'x-service-signature': forged,
      },
      body,
    });
    expect(response.status).toBe(401);
  });

  it('shows the last X-Service-Quota report in the status, and never logs the secret', async () => {
    const { quota } = (await h.api('GET', '/status')).body;
    expect(quota).toMatchObject({ tier: 'anonymous', endpoint: 'retrieve', limit: 100, reset: '2026-12-01T00:00:00Z' });
    expect(typeof quota.used).toBe('number');
    const [secret] = h.service.secrets();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(h.logs.text).not.toContain(secret);
    expect(JSON.stringify((await h.api('GET', '/status')).body)).not.toContain(secret);
  });

  it('serves a repeated goal from the cache, also while the service is down', async () => {
    h.service.candidates = () => [{ blueprint_json: json(VENDOR_WATCH), score: 0.8 }];
    const first = await goal('cached goal');
    const calls = h.service.calls('/v1/blueprints/retrieve').length;
    h.service.mode = 'down';
    const second = await goal('  Cached   GOAL ');
    expect(second.body).toEqual(first.body);
    expect(h.service.calls('/v1/blueprints/retrieve').length).toBe(calls);
    expect(await goal('never seen while down')).toMatchObject({
      status: 200,
      body: { kind: 'synthesis_needed', reason: 'service_unavailable' },
    });
    h.service.mode = 'up';
  });

  it('after the TTL asks again, and on 429 falls back to a cached answer that is fresh enough', async () => {
    h.service.candidates = () => scored(0.7);
    const first = await goal('quota goal');
    h.clock.advance(700_000);
    h.service.mode = 'quota';
    const stale = await goal('quota goal');
    expect(stale.body).toEqual(first.body);
    expect(h.service.calls('/v1/blueprints/retrieve').at(-1)?.body.goal).toBe('quota goal');
    h.clock.advance(600_000);
    expect((await goal('quota goal')).body).toEqual({
      kind: 'synthesis_needed',
      goal: 'quota goal',
      reason: 'quota_exceeded',
      skipped: [],
    });
  });

  it('answers synthesis_needed on 429 without a cached answer', async () => {
    h.service.mode = 'quota';
    expect(await goal('no cache and no quota')).toEqual({
      status: 200,
      body: { kind: 'synthesis_needed', goal: 'no cache and no quota', reason: 'quota_exceeded', skipped: [] },
    });
    h.service.mode = 'up';
  });

  it('enrolls again when the service no longer knows the instance', async () => {
    h.service.forget();
    const before = h.service.enrollments;
    h.service.candidates = () => scored(0.7);
    expect((await goal('after the service forgot us')).body.kind).toBe('picker_needed');
    expect(h.service.enrollments).toBe(before + 1);
  });

  it('tier skip never calls the service', async () => {
    await h.api('POST', '/enable', { tier: 'skip' });
    const before = h.service.requests.length;
    expect((await goal('skip tier goal')).body).toEqual({
      kind: 'synthesis_needed',
      goal: 'skip tier goal',
      reason: 'tier_skip',
      skipped: [],
    });
    expect(h.service.requests.length).toBe(before);
    await h.api('POST', '/enable', { tier: 'anonymous' });
  });
});

describe('without a configured service', () => {
  it('routes every goal to synthesis_needed', async () => {
    const bare = await startAutopilot({ withService: false });
    try {
      await bare.api('POST', '/enable', { tier: 'free' });
      expect((await bare.api('GET', '/status')).body.service_url).toBeNull();
      expect((await bare.api('POST', '/goal', { goal: 'anything' })).body).toEqual({
        kind: 'synthesis_needed',
        goal: 'anything',
        reason: 'not_configured',
        skipped: [],
      });
      expect(bare.service.requests).toHaveLength(0);
    } finally {
      await bare.stop();
    }
  });
});
