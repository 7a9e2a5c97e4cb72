import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAutopilot, settle, type AutopilotHarness } from '../autopilot-harness.js';
import { json, ONE_OFF_REPORT, VENDOR_WATCH } from '../blueprints.js';

let h: AutopilotHarness;
beforeAll(async () => {
  h = await startAutopilot();
  await h.api('POST', '/enable', { tier: 'free' });
});
afterAll(() => h.stop());

async function create(blueprint: object, slots: object, project = 'exec') {
  const answer = await h.api('POST', '/missions', { blueprint_json: json(blueprint), slots }, { project });
  expect(answer.status).toBe(200);
  return answer.body.mission_id as string;
}
const detail = async (id: string, project = 'exec') =>
  (await h.api('GET', `/missions/${id}`, undefined, { project })).body;

describe('mission execution', () => {
  it('a one-off mission runs right after approval, node by node, and completes with step results', async () => {
    const id = await create(ONE_OFF_REPORT, { topic: 'message queues' });
    expect((await h.api('POST', `/missions/${id}/approve`, undefined, { project: 'exec' })).body.status).toBe(
      'scheduled',
    );
    await settle(h);
    const mission = await detail(id);
    expect(mission).toMatchObject({ status: 'completed', next_run_at: null, healing: [] });
    expect(mission.runs).toEqual([
      expect.objectContaining({ trigger: 'approve', status: 'completed', error: null, cost_usd: 0 }),
    ]);
    const [draft, polish] = mission.steps;
    expect(draft.node_id).toBe('draft');
    expect(draft.output).toBe('echo: Draft a report on message queues for engineers');
    expect(draft.messages.map((message: { role: string }) => message.role)).toEqual(['system', 'user', 'assistant']);
    expect(draft.messages[0].content).toContain('You are the analyst of an automated mission.');
    expect(draft.telemetry).toEqual({
      cost_usd: 0,
      input_tokens: 10,
      output_tokens: 5,
      model_used: 'upstream/test-model',
      latency_ms: expect.any(Number),
    });
    // The second node's prompt carries the first node's full output.
    expect(polish.messages[1].content).toBe(`Polish this report: ${draft.output}`);
    expect(polish.output_preview).toBe(polish.output.slice(0, 200));
    const run = await h.app.runs.find(draft.run_id);
    expect(run?.run).toMatchObject({ source: 'autopilot', agent_name: `autopilot:${id}:draft`, status: 'completed' });
  });

  it('keeps the full output and a 200-character preview', async () => {
    const long = 'x'.repeat(450);
    h.upstream.enqueue({ kind: 'text', text: long }, { kind: 'text', text: 'short' });
    const id = await create(ONE_OFF_REPORT, { topic: 'long answers' });
    await h.api('POST', `/missions/${id}/approve`, undefined, { project: 'exec' });
    await settle(h);
    const [first] = (await detail(id)).steps;
    expect(first.output).toBe(long);
    expect(first.output_preview).toBe(long.slice(0, 200));
  });

  it('a cron mission fires at its tick (injected clock), once per tick, and goes back to scheduled', async () => {
    h.clock.set('2026-11-23T08:00:00.000Z');
    const id = await create(VENDOR_WATCH, { vendors: ['acme', 'globex'], schedule: '0 9 * * 1' });
    await h.api('POST', `/missions/${id}/approve`, undefined, { project: 'exec' });
    expect(await h.app.autopilot.scheduler.tick()).toBe(0);
    h.clock.set('2026-11-23T09:00:00.000Z');
    // Disabling refuses new goals only: scheduled missions keep firing.
    await h.api('POST', '/disable');
    const fired = await Promise.all([
      h.app.autopilot.scheduler.tick(),
      h.app.autopilot.scheduler.tick(),
      h.app.autopilot.scheduler.tick(),
    ]);
    expect(fired.reduce((sum, count) => sum + count, 0)).toBe(1);
    await settle(h);
    await h.api('POST', '/enable', { tier: 'free' });
    const mission = await detail(id);
    expect(mission).toMatchObject({ status: 'scheduled', next_run_at: '2026-11-30T09:00:00.000Z' });
    expect(mission.runs).toEqual([
      expect.objectContaining({ trigger: 'schedule', status: 'completed', scheduled_for: '2026-11-23T09:00:00.000Z' }),
    ]);
    expect(mission.steps.map((step: { node_id: string }) => step.node_id)).toEqual(['research', 'summarize']);
    expect(mission.steps[0].messages[1].content).toBe('List up to 5 price changes for acme, globex');
  });

  it('runs ticks missed while the server was down once after a restart', async () => {
    const id = (await h.api('GET', '/missions', undefined, { project: 'exec' })).body.find(
      (m: { blueprint_id: string }) => m.blueprint_id === 'vendor-watch',
    ).mission_id;
    h.clock.set('2026-12-15T12:00:00.000Z');
    await h.restart();
    await settle(h);
    const mission = await detail(id);
    expect(mission.runs).toHaveLength(2);
    expect(mission.runs[0]).toMatchObject({ scheduled_for: '2026-11-30T09:00:00.000Z', status: 'completed' });
    expect(mission.next_run_at).toBe('2026-12-21T09:00:00.000Z');
  });

  it('POST /run runs a scheduled mission now, keeping its schedule', async () => {
    const id = (await h.api('GET', '/missions', undefined, { project: 'exec' })).body.find(
      (m: { blueprint_id: string }) => m.blueprint_id === 'vendor-watch',
    ).mission_id;
    const started = await h.api('POST', `/missions/${id}/run`, undefined, { project: 'exec' });
    expect(started.body.status).toBe('running');
    expect((await h.api('POST', `/missions/${id}/run`, undefined, { project: 'exec' })).status).toBe(409);
    await settle(h);
    const mission = await detail(id);
    expect(mission).toMatchObject({ status: 'scheduled', next_run_at: '2026-12-21T09:00:00.000Z' });
    expect(mission.runs[0]).toMatchObject({ trigger: 'manual', status: 'completed' });
  });

  it('DELETE cancels a running execution', async () => {
    h.upstream.enqueue({ kind: 'hang' });
    const id = await create(ONE_OFF_REPORT, { topic: 'hangs' });
    await h.api('POST', `/missions/${id}/approve`, undefined, { project: 'exec' });
    await waitFor(async () => (await detail(id)).status === 'running');
    expect((await h.api('DELETE', `/missions/${id}`, undefined, { project: 'exec' })).body).toMatchObject({
      cancelled: true,
      status: 'cancelled',
    });
    await settle(h);
    const mission = await detail(id);
    expect(mission.status).toBe('cancelled');
    expect(mission.runs[0].status).toBe('cancelled');
  });
});

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('condition not reached');
}
