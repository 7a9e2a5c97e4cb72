import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_API_KEY } from '../../support/app.js';
import { injectFetch } from '../../support/inject.js';
import { startAutopilot, settle, type AutopilotHarness } from '../autopilot-harness.js';
import { json, ONE_OFF_REPORT } from '../blueprints.js';

// Issue #38: analytics filled with one pseudo agent per mission step (`autopilot:mis_…:draft`). A step's model
// calls are counted under `@autopilot`, with the mission and the step as filters of their own.
let h: AutopilotHarness;
let first: string;
let second: string;

const analytics = async (path: string): Promise<any> => {
  const response = await injectFetch(h.app.server, `/analytics${path}`, {
    headers: { authorization: `Bearer ${TEST_API_KEY}` },
  });
  expect(response.status).toBe(200);
  return response.json();
};

async function runMission(topic: string): Promise<string> {
  const created = await h.api(
    'POST',
    '/missions',
    { blueprint_json: json(ONE_OFF_REPORT), slots: { topic } },
    { project: 'analytics' },
  );
  expect(created.status).toBe(200);
  const id = created.body.mission_id as string;
  await h.api('POST', `/missions/${id}/approve`, undefined, { project: 'analytics' });
  await settle(h);
  const mission = (await h.api('GET', `/missions/${id}`, undefined, { project: 'analytics' })).body;
  expect(mission.status).toBe('completed');
  return id;
}

beforeAll(async () => {
  h = await startAutopilot();
  await h.api('POST', '/enable', { tier: 'free' });
  first = await runMission('message queues');
  second = await runMission('caches');
  // One call of a configured agent, which no mission filter may count.
  const chat = await injectFetch(h.app.server, '/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'helper', messages: [{ role: 'user', content: 'hello' }] }),
  });
  expect(chat.status).toBe(200);
});
afterAll(() => h.stop());

describe('mission steps in analytics', () => {
  it('counts every step under one agent, @autopilot, never a pseudo agent per mission and step', async () => {
    const agents: { agent_name: string; request_count: number; total_tokens: number }[] = await analytics('/agents');
    expect(agents.map((agent) => agent.agent_name).sort()).toEqual(['@autopilot', 'helper']);
    // Two missions of two steps each; the fake upstream reports 10 input and 5 output tokens per call.
    expect(agents.find((agent) => agent.agent_name === '@autopilot')).toMatchObject({
      request_count: 4,
      total_tokens: 60,
    });
    const usage = await analytics('/usage');
    expect(Object.keys(usage.by_agent).filter((name) => name.startsWith('autopilot:'))).toEqual([]);
  });

  it('filters by mission, and by a step of it', async () => {
    expect(await analytics(`/usage?mission_id=${first}`)).toEqual({
      total_tokens: 30,
      by_model: { 'upstream/test-model': 30 },
      by_agent: { '@autopilot': 30 },
      record_count: 2,
    });
    expect(await analytics(`/costs?mission_id=${second}&mission_step=polish`)).toMatchObject({
      by_agent: { '@autopilot': 0 },
      record_count: 1,
    });
    expect((await analytics(`/usage?mission_id=${first}&mission_step=nowhere`)).record_count).toBe(0);
    // A whole-day window is read from the daily totals elsewhere; a mission filter still reads only its records.
    expect(await analytics(`/agents?mission_id=${second}&since=2000-01-01&until=2100-01-01`)).toEqual([
      expect.objectContaining({ agent_name: '@autopilot', request_count: 2, total_tokens: 30 }),
    ]);
  });

  it('adds no metric series per mission: the steps read agent="_other"', async () => {
    const response = await injectFetch(h.app.server, '/metrics', {
      headers: { authorization: `Bearer ${TEST_API_KEY}` },
    });
    const text = await response.text();
    expect(text).toMatch(
      /agent_gateway_model_calls_total\{agent="_other",model="upstream\/test-model",status="ok"\} 4/,
    );
    expect(text).not.toContain('agent="autopilot:');
  });

  it('the runs keep naming the mission step they served, for operators', async () => {
    const [draft] = (await h.api('GET', `/missions/${first}`, undefined, { project: 'analytics' })).body.steps;
    const run = await h.app.runs.find(draft.run_id);
    expect(run?.run).toMatchObject({ source: 'autopilot', agent_name: `autopilot:${first}:draft` });
  });
});
