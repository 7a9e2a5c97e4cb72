import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAutopilot, settle, type AutopilotHarness } from '../autopilot-harness.js';
import { json, VENDOR_WATCH } from '../blueprints.js';

let h: AutopilotHarness;
beforeAll(async () => {
  h = await startAutopilot();
  await h.api('POST', '/enable', { tier: 'free' });
});
afterAll(() => h.stop());
// Each test counts the executions a tick launches: earlier tests' missions must not fire too.
afterEach(async () => {
  for (const mission of (await h.api('GET', '/missions', undefined, { project })).body)
    await h.api('DELETE', `/missions/${mission.mission_id}`, undefined, { project });
});

const project = 'policies';
async function recurring(schedule: string, policy: object) {
  const created = await h.api(
    'POST',
    '/missions',
    { blueprint_json: json(VENDOR_WATCH), slots: { vendors: ['acme'], schedule }, schedule_policy: policy },
    { project },
  );
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const approved = await h.api('POST', `/missions/${created.body.mission_id}/approve`, undefined, { project });
  return approved.body;
}
const detail = async (id: string) => (await h.api('GET', `/missions/${id}`, undefined, { project })).body;
const fire = async () => {
  const launched = await h.app.autopilot.scheduler.tick();
  await settle(h);
  return launched;
};

/** The first model call of the next execution moves the clock to `iso`: the execution outlives its next tick. */
function slowExecution(iso: string) {
  h.upstream.enqueue({
    kind: 'handler',
    fn: () => {
      h.clock.set(iso);
      return { kind: 'text', text: 'slow' };
    },
  });
}

describe('schedule policies (injected clock)', () => {
  it("reads the cron in the mission's time zone", async () => {
    h.clock.set('2026-11-23T06:00:00.000Z');
    const mission = await recurring('0 9 * * 1', { timezone: 'Europe/Paris' });
    expect(mission).toMatchObject({
      next_run_at: '2026-11-23T08:00:00.000Z',
      schedule_policy: { timezone: 'Europe/Paris' },
    });
    const bad = await h.api(
      'POST',
      '/missions',
      { blueprint_json: json(VENDOR_WATCH), schedule_policy: { timezone: 'Mars/Olympus' } },
      { project },
    );
    expect(bad.status).toBe(400);
  });

  it('overlap skip (default): a tick that came during the execution is recorded as skipped, the next one waits', async () => {
    h.clock.set('2026-11-23T08:00:00.000Z');
    const mission = await recurring('*/10 * * * *', {});
    expect(mission.schedule_policy.overlap).toBe('skip');
    h.clock.set('2026-11-23T08:10:00.000Z');
    slowExecution('2026-11-23T08:25:00.000Z');
    expect(await fire()).toBe(1);
    const after = await detail(mission.mission_id);
    expect(after).toMatchObject({ status: 'scheduled', next_run_at: '2026-11-23T08:30:00.000Z' });
    expect(after.runs.map((run: { status: string; scheduled_for: string }) => [run.status, run.scheduled_for])).toEqual(
      [
        ['skipped', '2026-11-23T08:20:00.000Z'],
        ['completed', '2026-11-23T08:10:00.000Z'],
      ],
    );
    expect(after.runs[0].error).toMatchObject({ code: 'overlap' });
    // The steps shown are those of the execution that ran.
    expect(after.steps).toHaveLength(2);
    expect(await fire()).toBe(0);
  });

  it('overlap buffer_one: the tick that came during the execution runs once right after', async () => {
    h.clock.set('2026-11-23T08:00:00.000Z');
    const mission = await recurring('*/10 * * * *', { overlap: 'buffer_one' });
    h.clock.set('2026-11-23T08:10:00.000Z');
    slowExecution('2026-11-23T08:25:00.000Z');
    await fire();
    expect((await detail(mission.mission_id)).next_run_at).toBe('2026-11-23T08:20:00.000Z');
    expect(await fire()).toBe(1);
    const after = await detail(mission.mission_id);
    expect(after.runs.map((run: { status: string }) => run.status)).toEqual(['completed', 'completed']);
    expect(after.next_run_at).toBe('2026-11-23T08:30:00.000Z');
  });

  it('overlap allow: a tick that comes during the execution starts its own, and the last to end settles the mission', async () => {
    h.clock.set('2026-11-23T08:00:00.000Z');
    const mission = await recurring('*/10 * * * *', { overlap: 'allow' });
    h.clock.set('2026-11-23T08:10:00.000Z');
    // The first execution's model call is slow, so it still runs when the next tick comes.
    h.upstream.enqueue({ kind: 'text', text: 'slow', delayMs: 3000 });
    expect(await h.app.autopilot.scheduler.tick()).toBe(1);
    h.clock.set('2026-11-23T08:20:00.000Z');
    expect(await h.app.autopilot.scheduler.tick()).toBe(1);
    // Once the second execution has ended while the first still runs, the mission is still running.
    let during = await detail(mission.mission_id);
    for (
      let polls = 0;
      polls < 250 &&
      during.runs.find((run: { scheduled_for: string }) => run.scheduled_for === '2026-11-23T08:20:00.000Z')?.status !==
        'completed';
      polls += 1
    ) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      during = await detail(mission.mission_id);
    }
    expect(
      during.runs.map((run: { status: string; scheduled_for: string }) => [run.scheduled_for, run.status]).sort(),
    ).toEqual([
      ['2026-11-23T08:10:00.000Z', 'running'],
      ['2026-11-23T08:20:00.000Z', 'completed'],
    ]);
    expect(during.status).toBe('running');
    await settle(h);
    const after = await detail(mission.mission_id);
    expect(after).toMatchObject({ status: 'scheduled', next_run_at: '2026-11-23T08:30:00.000Z' });
    expect(
      after.runs.map((run: { status: string; scheduled_for: string }) => [run.status, run.scheduled_for]).sort(),
    ).toEqual([
      ['completed', '2026-11-23T08:10:00.000Z'],
      ['completed', '2026-11-23T08:20:00.000Z'],
    ]);
  });

  it('catchup_window: after downtime a recent missed tick runs once, older ones are skipped and recorded', async () => {
    h.clock.set('2026-11-23T08:00:00.000Z');
    const mission = await recurring('0 * * * *', { catchup_window_seconds: 1800 });
    h.clock.set('2026-11-23T09:20:00.000Z');
    expect(await fire()).toBe(1);
    h.clock.set('2026-11-23T13:45:00.000Z');
    expect(await fire()).toBe(0);
    const after = await detail(mission.mission_id);
    expect(after).toMatchObject({ status: 'scheduled', next_run_at: '2026-11-23T14:00:00.000Z' });
    expect(after.runs[0]).toMatchObject({
      status: 'skipped',
      scheduled_for: '2026-11-23T10:00:00.000Z',
      error: { code: 'missed_tick' },
    });
    expect(after.runs[0].error.message).toContain(
      '4 tick(s) from 2026-11-23T10:00:00.000Z to 2026-11-23T13:00:00.000Z',
    );
    h.clock.set('2026-11-23T14:00:00.000Z');
    expect(await fire()).toBe(1);
  });

  it('pause_after_failures: a recurring mission carries on after a failure and pauses itself after N in a row; resume restarts it', async () => {
    h.clock.set('2026-11-23T08:00:00.000Z');
    const mission = await recurring('0 * * * *', { pause_after_failures: 2 });
    h.upstream.enqueue({ kind: 'error', status: 503 });
    h.clock.set('2026-11-23T09:00:00.000Z');
    await fire();
    expect(await detail(mission.mission_id)).toMatchObject({
      status: 'scheduled',
      consecutive_failures: 1,
      next_run_at: '2026-11-23T10:00:00.000Z',
    });
    h.upstream.enqueue({ kind: 'error', status: 503 });
    h.clock.set('2026-11-23T10:00:00.000Z');
    await fire();
    expect(await detail(mission.mission_id)).toMatchObject({ status: 'paused', consecutive_failures: 2 });
    h.clock.set('2026-11-23T11:00:00.000Z');
    expect(await fire()).toBe(0);
    const resumed = (await h.api('POST', `/missions/${mission.mission_id}/resume`, undefined, { project })).body;
    expect(resumed).toMatchObject({
      status: 'scheduled',
      consecutive_failures: 0,
      next_run_at: '2026-11-23T12:00:00.000Z',
    });
    expect((await h.api('POST', `/missions/${mission.mission_id}/resume`, undefined, { project })).status).toBe(409);
    h.clock.set('2026-11-23T12:00:00.000Z');
    await fire();
    expect((await detail(mission.mission_id)).runs[0].status).toBe('completed');
  });

  it('without pause_after_failures the first failure fails a recurring mission (as before)', async () => {
    h.clock.set('2026-11-23T08:00:00.000Z');
    const mission = await recurring('0 * * * *', {});
    h.upstream.enqueue({ kind: 'error', status: 503 });
    h.clock.set('2026-11-23T09:00:00.000Z');
    await fire();
    expect((await detail(mission.mission_id)).status).toBe('failed');
  });

  it('jitter delays each tick by a stable amount within the bound; pause and resume by hand', async () => {
    h.clock.set('2026-11-23T08:00:00.000Z');
    const mission = await recurring('0 9 * * *', { jitter_seconds: 600 });
    const delay = new Date(mission.next_run_at).getTime() - new Date('2026-11-23T09:00:00.000Z').getTime();
    expect(delay).toBeGreaterThanOrEqual(0);
    expect(delay).toBeLessThanOrEqual(600_000);
    const again = (
      await h.api('PATCH', `/missions/${mission.mission_id}`, { schedule_policy: { jitter_seconds: 600 } }, { project })
    ).body;
    expect(again.next_run_at).toBe(mission.next_run_at);
    expect((await h.api('POST', `/missions/${mission.mission_id}/pause`, undefined, { project })).body.status).toBe(
      'paused',
    );
    h.clock.set('2026-11-23T09:30:00.000Z');
    expect(await fire()).toBe(0);
    expect((await h.api('POST', `/missions/${mission.mission_id}/resume`, undefined, { project })).body.status).toBe(
      'scheduled',
    );
  });
});
