import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAutopilot, settle, type AutopilotHarness } from '../autopilot-harness.js';
import { json, ONE_OFF_REPORT } from '../blueprints.js';

const project = 'heal-apply';

async function failAtPolish(h: AutopilotHarness, blueprint: object = ONE_OFF_REPORT) {
  // The first node answers, the second meets a provider outage.
  h.upstream.enqueue({ kind: 'text', text: 'first draft' }, { kind: 'error', status: 503 });
  const created = await h.api(
    'POST',
    '/missions',
    { blueprint_json: json(blueprint), slots: { topic: 'healing' } },
    { project },
  );
  const id = created.body.mission_id as string;
  await h.api('POST', `/missions/${id}/approve`, undefined, { project });
  await settle(h);
  return id;
}
const detail = async (h: AutopilotHarness, id: string) =>
  (await h.api('GET', `/missions/${id}`, undefined, { project })).body;
const apply = (h: AutopilotHarness, id: string, recommendation: string, params?: object) =>
  h.api('POST', `/missions/${id}/healing/${recommendation}/apply`, params ? { params } : {}, { project });

describe('healing you can apply', () => {
  let h: AutopilotHarness;
  beforeAll(async () => {
    h = await startAutopilot();
    await h.api('POST', '/enable', { tier: 'free' });
  });
  afterAll(() => h.stop());

  it('each recommendation carries a machine-readable action; retry_step re-runs from the failed step, keeping the earlier step', async () => {
    const id = await failAtPolish(h, { ...ONE_OFF_REPORT, id: 'heal-retry' });
    const failed = await detail(h, id);
    expect(failed.status).toBe('failed');
    expect(failed.healing).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: 'upstream.retry_with_backoff',
          apply: { action: 'retry_step', params: { node_id: 'polish' }, safe: true },
        }),
        expect.objectContaining({
          id: 'upstream.rotate_provider',
          apply: { action: 'retry_with_model', params: { node_id: 'polish', model: null }, safe: false },
        }),
      ]),
    );
    const [draftBefore] = failed.steps;
    const calls = h.upstream.chatRequests().length;
    const applied = await apply(h, id, 'upstream.retry_with_backoff');
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    await settle(h);
    const healed = await detail(h, id);
    expect(healed.status).toBe('completed');
    expect(healed.runs.map((run: { trigger: string; status: string }) => [run.trigger, run.status])).toEqual([
      ['heal', 'completed'],
      ['approve', 'failed'],
    ]);
    expect(healed.steps.map((step: { node_id: string; status: string }) => [step.node_id, step.status])).toEqual([
      ['draft', 'completed'],
      ['polish', 'completed'],
    ]);
    expect(healed.steps[0]).toMatchObject({ output: 'first draft', run_id: draftBefore.run_id });
    expect(healed.steps[1].messages[1].content).toBe('Polish this report: first draft');
    // Only the failed node called the model again.
    expect(h.upstream.chatRequests().length - calls).toBe(1);
  });

  it('retry_with_model needs a configured model and then serves the failed node with it', async () => {
    const id = await failAtPolish(h, { ...ONE_OFF_REPORT, id: 'heal-model' });
    const missing = await apply(h, id, 'upstream.rotate_provider');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'invalid_heal_param', param: 'params.model' });
    expect((await apply(h, id, 'upstream.rotate_provider', { model: 'nowhere/m' })).body.error.param).toBe(
      'params.model',
    );
    expect((await apply(h, id, 'upstream.rotate_provider', { model: 'upstream/other-model' })).status).toBe(200);
    await settle(h);
    const healed = await detail(h, id);
    expect(healed.status).toBe('completed');
    expect(healed.steps[1].telemetry.model_used).toBe('upstream/other-model');
    expect(healed.blueprint.agent_graph.nodes[1].model).toBe('upstream/other-model');
  });

  it('refuses what cannot be applied: an unknown recommendation 404, a mission that is not failed or paused 409', async () => {
    const id = await failAtPolish(h, { ...ONE_OFF_REPORT, id: 'heal-refuse' });
    expect((await apply(h, id, 'nope.nothing')).body.error.code).toBe('recommendation_not_found');
    await apply(h, id, 'upstream.retry_with_backoff');
    await settle(h);
    const again = await apply(h, id, 'upstream.retry_with_backoff');
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('invalid_mission_state');
  });
});

describe('autopilot.auto_heal', () => {
  let h: AutopilotHarness;
  beforeAll(async () => {
    h = await startAutopilot({ autopilot: ['auto_heal: { enabled: true, max_per_mission: 1 }'] });
    await h.api('POST', '/enable', { tier: 'free' });
  });
  afterAll(() => h.stop());

  it('applies the safe retry of a transient upstream error by itself', async () => {
    const id = await failAtPolish(h, { ...ONE_OFF_REPORT, id: 'auto-once' });
    const healed = await detail(h, id);
    expect(healed.status).toBe('completed');
    expect(healed.runs.map((run: { trigger: string; status: string }) => [run.trigger, run.status])).toEqual([
      ['auto_heal', 'completed'],
      ['approve', 'failed'],
    ]);
  });

  it('stops at max_per_mission and leaves the mission failed for an operator', async () => {
    h.upstream.enqueue(
      { kind: 'text', text: 'first draft' },
      { kind: 'error', status: 503 },
      { kind: 'error', status: 503 },
    );
    const created = await h.api(
      'POST',
      '/missions',
      { blueprint_json: json({ ...ONE_OFF_REPORT, id: 'auto-limit' }), slots: { topic: 'x' } },
      { project },
    );
    await h.api('POST', `/missions/${created.body.mission_id}/approve`, undefined, { project });
    await settle(h);
    const mission = await detail(h, created.body.mission_id);
    expect(mission.status).toBe('failed');
    expect(mission.runs.map((run: { trigger: string }) => run.trigger)).toEqual(['auto_heal', 'approve']);
  });

  it('does nothing when no recommendation is marked safe (the provider refused the credentials)', async () => {
    h.upstream.enqueue({ kind: 'error', status: 401 });
    const created = await h.api(
      'POST',
      '/missions',
      { blueprint_json: json({ ...ONE_OFF_REPORT, id: 'auto-auth' }), slots: { topic: 'x' } },
      { project },
    );
    await h.api('POST', `/missions/${created.body.mission_id}/approve`, undefined, { project });
    await settle(h);
    const mission = await detail(h, created.body.mission_id);
    expect(mission.status).toBe('failed');
    expect(mission.runs).toHaveLength(1);
    // Advice only: fixing the credentials is the operator's job, so there is nothing to apply.
    const advice = await apply(h, created.body.mission_id, 'auth.fix_credentials');
    expect(advice).toMatchObject({ status: 409, body: { error: { type: 'conflict_error', code: 'not_applicable' } } });
  });
});
