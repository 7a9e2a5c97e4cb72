import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAutopilot, settle, type AutopilotHarness } from '../autopilot-harness.js';
import { json, ONE_OFF_REPORT, VENDOR_WATCH } from '../blueprints.js';

let h: AutopilotHarness;
beforeAll(async () => {
  h = await startAutopilot();
  await h.api('POST', '/enable', { tier: 'free' });
});
afterAll(() => h.stop());

async function draft(
  project?: string,
  blueprint: object = VENDOR_WATCH,
  slots: object = { vendors: ['acme'], schedule: '0 9 * * 1' },
) {
  const answer = await h.api('POST', '/missions', { blueprint_json: json(blueprint), slots }, { project });
  expect(answer.status).toBe(200);
  return answer.body;
}

describe('missions: creation and project scoping', () => {
  it('creates a draft from a blueprint with explicit slots', async () => {
    const mission = await draft('alpha');
    expect(mission).toMatchObject({
      status: 'draft',
      project_id: 'alpha',
      blueprint_id: 'vendor-watch',
      slots: { vendors: ['acme'], schedule: '0 9 * * 1', max_items: 5 },
      schedule: '0 9 * * 1',
      next_run_at: null,
      runs: [],
      steps: [],
      healing: [],
    });
    expect(mission.mission_id).toMatch(/^mis_[0-9a-f]{24}$/);
    expect(mission.preview).toContain('Title: Vendor price watch');
    expect(mission.blueprint.id).toBe('vendor-watch');
  });

  it('keeps projects apart: another project sees no list entry and gets 404', async () => {
    const mission = await draft('alpha');
    const other = await h.api('GET', '/missions', undefined, { project: 'beta' });
    expect(other.body.find((item: { mission_id: string }) => item.mission_id === mission.mission_id)).toBeUndefined();
    for (const [method, path] of [
      ['GET', ''],
      ['POST', '/approve'],
      ['POST', '/run'],
      ['DELETE', ''],
      ['GET', '/healing'],
    ]) {
      const answer = await h.api(method, `/missions/${mission.mission_id}${path}`, undefined, { project: 'beta' });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.error.code).toBe('mission_not_found');
    }
    expect((await h.api('GET', `/missions/${mission.mission_id}`, undefined, { project: 'alpha' })).status).toBe(200);
  });

  it('uses the default project without X-Project-ID', async () => {
    const mission = await draft();
    expect(mission.project_id).toBe('default');
    const list = (await h.api('GET', '/missions')).body;
    expect(list.map((item: { mission_id: string }) => item.mission_id)).toContain(mission.mission_id);
    expect(list.every((item: { status: string }) => item.status === item.status.toLowerCase())).toBe(true);
  });

  it('refuses an invalid blueprint with 400 naming the field', async () => {
    const cyclic = {
      ...ONE_OFF_REPORT,
      agent_graph: {
        ...ONE_OFF_REPORT.agent_graph,
        edges: [
          ['draft', 'polish'],
          ['polish', 'draft'],
        ],
      },
    };
    const cases: [object, string][] = [
      [
        {
          ...ONE_OFF_REPORT,
          agent_graph: {
            ...ONE_OFF_REPORT.agent_graph,
            nodes: [ONE_OFF_REPORT.agent_graph.nodes[0], { ...ONE_OFF_REPORT.agent_graph.nodes[1], id: 'draft' }],
          },
        },
        'blueprint_json.agent_graph.nodes[1].id',
      ],
      [
        { ...ONE_OFF_REPORT, agent_graph: { ...ONE_OFF_REPORT.agent_graph, edges: [['draft', 'ghost']] } },
        'blueprint_json.agent_graph.edges[0][1]',
      ],
      [cyclic, 'blueprint_json.agent_graph.edges[1][1]'],
      [{ ...ONE_OFF_REPORT, tools_required: ['teleport'] }, 'blueprint_json.tools_required[0]'],
      [{ ...ONE_OFF_REPORT, agent_graph: undefined }, 'blueprint_json.agent_graph'],
    ];
    for (const [blueprint, field] of cases) {
      const answer = await h.api('POST', '/missions', { blueprint_json: json(blueprint), slots: { topic: 'x' } });
      expect(answer.status, field).toBe(400);
      expect(answer.body.error.code).toBe('invalid_blueprint');
      expect(answer.body.error.param).toBe(field);
      expect(answer.body.error.message).toContain(field);
    }
    const notJson = await h.api('POST', '/missions', { blueprint_json: '{nope' });
    expect(notJson.body.error).toMatchObject({ code: 'invalid_blueprint', param: 'blueprint_json' });
  });

  it('refuses unknown and ill-typed slots with 400', async () => {
    const unknown = await h.api('POST', '/missions', {
      blueprint_json: json(ONE_OFF_REPORT),
      slots: { topic: 'x', colour: 'red' },
    });
    expect(unknown.body.error).toMatchObject({ code: 'invalid_slot', param: 'slots.colour' });
    const badInt = await h.api('POST', '/missions', {
      blueprint_json: json(VENDOR_WATCH),
      slots: { vendors: 'a', schedule: '0 9 * * 1', max_items: 'many' },
    });
    expect(badInt.body.error).toMatchObject({ code: 'invalid_slot', param: 'slots.max_items' });
  });
});

describe('mission transitions', () => {
  it('approve moves a draft to scheduled with its next run; approving again is 409', async () => {
    const mission = await draft();
    const approved = await h.api('POST', `/missions/${mission.mission_id}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      mission_id: mission.mission_id,
      status: 'scheduled',
      next_run_at: '2026-11-23T09:00:00.000Z',
    });
    const again = await h.api('POST', `/missions/${mission.mission_id}/approve`);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'invalid_mission_state', status: 'scheduled' });
  });

  it('refuses to approve a draft that lacks required slots (400 missing_slots naming the slot)', async () => {
    const mission = await draft(undefined, VENDOR_WATCH, { vendors: ['acme'] });
    expect(mission.missing_slots).toEqual(['schedule']);
    expect(mission.preview).toContain('schedule [cron]: (missing, required');
    const answer = await h.api('POST', `/missions/${mission.mission_id}/approve`);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      code: 'missing_slots',
      param: 'slots.schedule',
      missing_slots: ['schedule'],
    });
    expect(answer.body.error.message).toContain('"schedule"');
  });

  it('DELETE cancels a draft or a scheduled mission; a cancelled one cannot be approved or run', async () => {
    const first = await draft();
    expect((await h.api('DELETE', `/missions/${first.mission_id}`)).body).toEqual({
      cancelled: true,
      mission_id: first.mission_id,
      status: 'cancelled',
    });
    expect((await h.api('POST', `/missions/${first.mission_id}/approve`)).status).toBe(409);
    const second = await draft();
    await h.api('POST', `/missions/${second.mission_id}/approve`);
    expect((await h.api('DELETE', `/missions/${second.mission_id}`)).body.cancelled).toBe(true);
    const detail = (await h.api('GET', `/missions/${second.mission_id}`)).body;
    expect(detail).toMatchObject({ status: 'cancelled', next_run_at: null });
    expect((await h.api('POST', `/missions/${second.mission_id}/run`)).status).toBe(409);
  });

  it('DELETE on a completed mission changes nothing and answers cancelled: false', async () => {
    const mission = await draft(undefined, ONE_OFF_REPORT, { topic: 'queues' });
    await h.api('POST', `/missions/${mission.mission_id}/approve`);
    await settle(h);
    expect((await h.api('GET', `/missions/${mission.mission_id}`)).body.status).toBe('completed');
    expect(await h.api('DELETE', `/missions/${mission.mission_id}`)).toEqual({
      status: 200,
      body: { cancelled: false, mission_id: mission.mission_id, status: 'completed' },
    });
    expect((await h.api('GET', `/missions/${mission.mission_id}`)).body.status).toBe('completed');
  });

  it('run now is 409 for a draft and unknown ids are 404', async () => {
    const mission = await draft();
    expect((await h.api('POST', `/missions/${mission.mission_id}/run`)).status).toBe(409);
    expect((await h.api('GET', '/missions/mis_unknown')).status).toBe(404);
    expect((await h.api('DELETE', '/missions/mis_unknown')).status).toBe(404);
  });
});
