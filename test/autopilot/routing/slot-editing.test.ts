import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAutopilot, settle, type AutopilotHarness } from '../autopilot-harness.js';
import { json, ONE_OFF_REPORT, VENDOR_WATCH } from '../blueprints.js';

let h: AutopilotHarness;
beforeAll(async () => {
  h = await startAutopilot();
  await h.api('POST', '/enable', { tier: 'free' });
});
afterAll(() => h.stop());

const project = 'slot-edit';
const create = async (blueprint: object, slots: object) =>
  (await h.api('POST', '/missions', { blueprint_json: json(blueprint), slots }, { project })).body;
const patch = (id: string, slots: object) => h.api('PATCH', `/missions/${id}`, { slots }, { project });

/** A report whose optional slot has no default: nothing fills it unless the user does. */
const WITH_OPTIONAL = { ...ONE_OFF_REPORT, id: 'report-optional', optional_slots: { audience: { type: 'str' } } };

describe('slots: no raw placeholder ever reaches a model', () => {
  it('an optional slot without a value renders empty, and the preview says so', async () => {
    const mission = await create(WITH_OPTIONAL, { topic: 'caching' });
    expect(mission.preview).toContain('audience [str]: (not set: prompts get an empty value)');
    await h.api('POST', `/missions/${mission.mission_id}/approve`, undefined, { project });
    await settle(h);
    const done = (await h.api('GET', `/missions/${mission.mission_id}`, undefined, { project })).body;
    expect(done.status).toBe('completed');
    const prompts = h.upstream
      .chatRequests()
      .flatMap((request) => request.body.messages.map((message: { content: string }) => message.content));
    expect(done.steps[0].messages[1].content).toBe('Draft a report on caching for ');
    expect(prompts.some((content: string) => content.includes('{{'))).toBe(false);
  });

  it('a missing required slot blocks approval with 400 naming it; PATCH fills it, rebuilding schedule and preview', async () => {
    const mission = await create(VENDOR_WATCH, { vendors: ['acme'] });
    const refused = await h.api('POST', `/missions/${mission.mission_id}/approve`, undefined, { project });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'missing_slots', param: 'slots.schedule' });
    const bad = await patch(mission.mission_id, { schedule: 'every monday' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_slot', param: 'slots.schedule' });
    const unknown = await patch(mission.mission_id, { colour: 'red' });
    expect(unknown.body.error).toMatchObject({ code: 'invalid_slot', param: 'slots.colour' });
    const fixed = await patch(mission.mission_id, { schedule: '0 9 * * 1', max_items: '7' });
    expect(fixed.status).toBe(200);
    expect(fixed.body).toMatchObject({
      status: 'draft',
      schedule: '0 9 * * 1',
      missing_slots: [],
      slots: { vendors: ['acme'], schedule: '0 9 * * 1', max_items: 7 },
    });
    expect(fixed.body.preview).toContain('schedule [cron]: 0 9 * * 1');
    // null takes a value back out: the default applies again.
    expect((await patch(mission.mission_id, { max_items: null })).body.slots.max_items).toBe(5);
    expect((await h.api('POST', `/missions/${mission.mission_id}/approve`, undefined, { project })).body.status).toBe(
      'scheduled',
    );
    const late = await patch(mission.mission_id, { vendors: ['globex'] });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('invalid_mission_state');
  });
});
