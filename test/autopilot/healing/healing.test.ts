import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAutopilot, settle, type AutopilotHarness } from '../autopilot-harness.js';
import { json, ONE_OFF_REPORT } from '../blueprints.js';

let h: AutopilotHarness;
beforeAll(async () => {
  h = await startAutopilot();
  await h.api('POST', '/enable', { tier: 'free' });
});
afterAll(() => h.stop());

async function runFailing(
  response: Parameters<AutopilotHarness['upstream']['enqueue']>[0],
  blueprint: object = ONE_OFF_REPORT,
) {
  h.upstream.enqueue(response);
  const created = await h.api(
    'POST',
    '/missions',
    { blueprint_json: json(blueprint), slots: { topic: 'failures' } },
    { project: 'heal' },
  );
  const id = created.body.mission_id as string;
  await h.api('POST', `/missions/${id}/approve`, undefined, { project: 'heal' });
  await settle(h);
  return (await h.api('GET', `/missions/${id}`, undefined, { project: 'heal' })).body;
}

describe('failed missions and healing recommendations', () => {
  it('an upstream 5xx fails the mission and recommends a retry with backoff, never applying it', async () => {
    const mission = await runFailing({ kind: 'error', status: 503 }, { ...ONE_OFF_REPORT, id: 'flaky' });
    expect(mission.status).toBe('failed');
    expect(mission.runs[0]).toMatchObject({ status: 'failed', error: { class: 'upstream' } });
    expect(mission.steps).toHaveLength(1);
    expect(mission.steps[0]).toMatchObject({ node_id: 'draft', status: 'failed', error: { code: 'upstream_error' } });
    expect(mission.healing).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'retry_with_backoff', reason: 'upstream', severity: 'warning' }),
        expect.objectContaining({ action: 'rotate_provider', reason: 'upstream' }),
      ]),
    );
    const healing = await h.api('GET', `/missions/${mission.mission_id}/healing`, undefined, { project: 'heal' });
    expect(healing).toEqual({ status: 200, body: mission.healing });
    expect(
      (await h.api('GET', `/missions/${mission.mission_id}`, undefined, { project: 'heal' })).body.runs,
    ).toHaveLength(1);
  });

  it('classifies rate limits and refused credentials', async () => {
    const limited = await runFailing({ kind: 'error', status: 429 }, { ...ONE_OFF_REPORT, id: 'limited' });
    expect(limited.runs[0].error.class).toBe('rate_limited');
    expect(limited.healing[0]).toMatchObject({ action: 'retry_with_backoff', reason: 'rate_limited' });
    const refused = await runFailing({ kind: 'error', status: 401 }, { ...ONE_OFF_REPORT, id: 'refused' });
    expect(refused.runs[0].error.class).toBe('auth');
    expect(refused.healing).toEqual([
      expect.objectContaining({ action: 'fix_credentials', reason: 'auth', severity: 'critical' }),
    ]);
  });

  it('three consecutive failures of a blueprint raise an operator alert', async () => {
    const blueprint = { ...ONE_OFF_REPORT, id: 'always-down' };
    await runFailing({ kind: 'error', status: 500 }, blueprint);
    await runFailing({ kind: 'error', status: 500 }, blueprint);
    const third = await runFailing({ kind: 'error', status: 500 }, blueprint);
    expect(third.healing).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'alert_operator', reason: 'consecutive_failures', severity: 'critical' }),
      ]),
    );
  });
});
