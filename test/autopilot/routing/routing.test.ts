import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { startAutopilot, type AutopilotHarness } from '../autopilot-harness.js';
import { json, scored, VENDOR_WATCH } from '../blueprints.js';

let h: AutopilotHarness;
beforeAll(async () => {
  h = await startAutopilot();
  await h.api('POST', '/enable', { tier: 'anonymous' });
});
afterAll(() => h.stop());

/** Routes a goal with the service answering these scores (each goal is new, so the cache never answers). */
async function route(scores: number[], goal = `goal ${Math.random()}`) {
  h.service.candidates = () => scored(...scores);
  const answer = await h.api('POST', '/goal', { goal });
  expect(answer.status).toBe(200);
  return answer.body;
}

describe('goal routing at and around the thresholds (0.85 / 0.65)', () => {
  it.each([
    [0.85, 'auto_routed'],
    [0.9999, 'auto_routed'],
    [0.8499, 'picker_needed'],
    [0.65, 'picker_needed'],
    [0.6499, 'synthesis_needed'],
    [0.1, 'synthesis_needed'],
  ])('a top score of %s gives %s', async (score, kind) => {
    expect((await route([score, 0.2])).kind).toBe(kind);
  });

  it('auto-routes to a draft mission with a preview and slots from key=value pairs and defaults', async () => {
    h.service.candidates = () => [{ blueprint_json: json(VENDOR_WATCH), score: 0.91 }];
    const goal = 'watch vendor prices vendors=acme,globex schedule="0 9 * * 1"';
    const { body } = await h.api('POST', '/goal', { goal }, { project: 'routing' });
    expect(body).toMatchObject({
      kind: 'auto_routed',
      blueprint_id: 'vendor-watch',
      slots: { vendors: ['acme', 'globex'], schedule: '0 9 * * 1', max_items: 5 },
      missing_slots: [],
    });
    expect(body.mission_id).toMatch(/^mis_/);
    expect(body.preview.split('\n')).toEqual(
      expect.arrayContaining([
        'Title: Vendor price watch',
        'Category: monitoring',
        'Mode: recurring',
        'Tools required: get_current_time',
      ]),
    );
    expect(body.preview).toContain('vendors [list[str]]: acme, globex');
    const missions = (await h.api('GET', '/missions', undefined, { project: 'routing' })).body;
    expect(missions).toEqual([
      expect.objectContaining({
        mission_id: body.mission_id,
        status: 'draft',
        blueprint_id: 'vendor-watch',
        project_id: 'routing',
        schedule: '0 9 * * 1',
      }),
    ]);
  });

  it('rejects an invalid explicit slot value with 400 naming the slot', async () => {
    h.service.candidates = () => [{ blueprint_json: json(VENDOR_WATCH), score: 0.95 }];
    const answer = await h.api('POST', '/goal', { goal: 'watch vendors=acme schedule="every monday"' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'invalid_slot', param: 'slots.schedule' });
  });

  it('offers the top 3 candidates at or above the picker threshold, best first', async () => {
    const body = await route([0.7, 0.84, 0.66, 0.8, 0.5]);
    expect(body.kind).toBe('picker_needed');
    expect(body.candidates.map((candidate: { score: number }) => candidate.score)).toEqual([0.84, 0.8, 0.7]);
    expect(JSON.parse(body.candidates[0].blueprint_json).id).toBe('report-1');
  });

  it('answers synthesis_needed with the goal when the service has no candidates', async () => {
    expect(await route([], 'xyzzy plugh')).toEqual({
      kind: 'synthesis_needed',
      goal: 'xyzzy plugh',
      reason: 'no_candidates',
      skipped: [],
    });
  });

  it('pick refuses a project without a picker (404), a goal routed elsewhere (409) and a number past the list (400)', async () => {
    const none = await h.api('POST', '/pick', { n: 1 }, { project: 'never-shown-a-picker' });
    expect(none).toMatchObject({ status: 404, body: { error: { type: 'not_found_error', code: 'no_picker' } } });

    h.service.candidates = () => scored(0.95);
    const auto = await h.api('POST', '/pick', { n: 1, goal: 'an auto-routed goal' }, { project: 'pick-auto' });
    expect(auto).toMatchObject({ status: 409, body: { error: { type: 'conflict_error', code: 'goal_not_picker' } } });

    await route([0.7, 0.8]);
    const tooFar = await h.api('POST', '/pick', { n: 3 });
    expect(tooFar).toMatchObject({ status: 400, body: { error: { code: 'invalid_pick', param: 'n' } } });
  });

  it('skips candidates this installation cannot run (unknown tools)', async () => {
    const unknownTool = { ...VENDOR_WATCH, tools_required: ['teleport'] };
    h.service.candidates = () => [{ blueprint_json: json(unknownTool), score: 0.99 }, ...scored(0.7)];
    const { body } = await h.api('POST', '/goal', { goal: 'skip the broken one' });
    expect(body.kind).toBe('picker_needed');
    expect(body.candidates).toHaveLength(1);
  });
});

describe('thresholds from the environment and config', () => {
  it('AUTOPILOT_AUTO_ROUTE_THRESHOLD, AUTOPILOT_PICKER_THRESHOLD and picker_top_k change the routing', async () => {
    const custom = await startAutopilot({
      env: { AUTOPILOT_AUTO_ROUTE_THRESHOLD: '0.95', AUTOPILOT_PICKER_THRESHOLD: '0.5' },
      autopilot: ['picker_top_k: 2'],
    });
    try {
      await custom.api('POST', '/enable', { tier: 'free' });
      custom.service.candidates = () => scored(0.9, 0.55, 0.52, 0.4);
      const picker = await custom.api('POST', '/goal', { goal: 'env thresholds' });
      expect(picker.body.kind).toBe('picker_needed');
      expect(picker.body.candidates.map((c: { score: number }) => c.score)).toEqual([0.9, 0.55]);
      custom.service.candidates = () => scored(0.95);
      expect((await custom.api('POST', '/goal', { goal: 'env thresholds again' })).body.kind).toBe('auto_routed');
    } finally {
      await custom.stop();
    }
  });

  it('refuses an auto threshold that is not above the picker threshold', async () => {
    await expect(startAutopilot({ env: { AUTOPILOT_AUTO_ROUTE_THRESHOLD: '0.6' } })).rejects.toThrow(ConfigError);
    await expect(startAutopilot({ autopilot: ['auto_route_threshold: 0.5', 'picker_threshold: 0.5'] })).rejects.toThrow(
      /auto_route_threshold \(0.5\) must be above picker_threshold/,
    );
  });
});
