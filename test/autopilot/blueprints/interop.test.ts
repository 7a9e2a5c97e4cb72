import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAutopilot, settle, type AutopilotHarness } from '../autopilot-harness.js';
import { json, ONE_OFF_REPORT, VENDOR_WATCH } from '../blueprints.js';
import { CATALOGUE_COMPOSED, CATALOGUE_NEWS_DIGEST, CATALOGUE_TRIAGE, UNEXECUTABLE } from '../catalogue-blueprints.js';

let h: AutopilotHarness;
beforeAll(async () => {
  h = await startAutopilot();
  await h.api('POST', '/enable', { tier: 'anonymous' });
});
afterAll(() => h.stop());

const project = 'interop';
const get = async (id: string) => (await h.api('GET', `/missions/${id}`, undefined, { project })).body;

async function routeTo(blueprint: object, goal: string) {
  h.service.candidates = () => [{ blueprint_json: json(blueprint), score: 0.93 }];
  const answer = await h.api('POST', '/goal', { goal }, { project });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

async function approveAndRun(id: string) {
  expect((await h.api('POST', `/missions/${id}/approve`, undefined, { project })).status).toBe(200);
  await settle(h);
  return get(id);
}

describe("blueprints in the hosted catalogue's vocabulary", () => {
  it('routes, keeps unknown fields, fills slots and runs a catalogue blueprint to completion', async () => {
    const routed = await routeTo(CATALOGUE_NEWS_DIGEST, 'digest topic=rust schedule="0 7 * * *"');
    expect(routed).toMatchObject({
      kind: 'auto_routed',
      blueprint_id: 'cat-news-digest',
      slots: { topic: 'rust', schedule: '0 7 * * *', max_items: 5 },
      missing_slots: [],
      skipped: [],
    });
    const mission = await get(routed.mission_id);
    expect(mission.schedule).toBe('0 7 * * *');
    expect(mission.blueprint).toMatchObject({
      x_vendor_meta: { owner: 'catalogue-team' },
      sandbox_requirements: { network: 'none' },
    });
    expect(mission.blueprint_unknown_fields).toEqual(['x_vendor_meta']);
    expect(mission.blueprint_notes).toEqual(
      expect.arrayContaining([
        expect.stringContaining('model_ref: "anthropic/claude-3-5-haiku" is not configured here'),
      ]),
    );
    expect(mission.preview).toContain('vendors [list[str]]: (not set: prompts get an empty value)');
    expect((await h.api('POST', `/missions/${routed.mission_id}/approve`, undefined, { project })).status).toBe(200);
    const run = await h.api('POST', `/missions/${routed.mission_id}/run`, undefined, { project });
    expect(run.status).toBe(200);
    await settle(h);
    const done = await get(routed.mission_id);
    expect(done.runs[0]).toMatchObject({ status: 'completed' });
    // The prompt came from prompts[prompt_ref]; the unset optional slot rendered empty, never as {{vendors}}.
    expect(done.steps[0].messages[1].content).toBe('List up to 5 news items about rust (vendors: )');
    expect(done.steps[0].telemetry.model_used).toBe('upstream/test-model');
    expect(done.steps[1].messages[1].content).toBe(`Write the digest: ${done.steps[0].output}`);
  });

  it('runs the composition form step by step, a deterministic step without a model call', async () => {
    const routed = await routeTo(CATALOGUE_COMPOSED, 'brief subject=queues');
    const before = h.upstream.chatRequests().length;
    const done = await approveAndRun(routed.mission_id);
    expect(done.status).toBe('completed');
    expect(done.steps.map((step: { node_id: string }) => step.node_id)).toEqual(['outline', 'stamp']);
    expect(done.steps[1]).toMatchObject({
      output: `BRIEF\n${done.steps[0].output}`,
      telemetry: { model_used: 'deterministic' },
    });
    expect(h.upstream.chatRequests().length - before).toBe(1);
  });

  it('takes only the branch whose condition the classifier output meets', async () => {
    const urgent = await routeTo(CATALOGUE_TRIAGE, 'triage ticket="server down, urgent"');
    expect((await approveAndRun(urgent.mission_id)).steps.map((step: { node_id: string }) => step.node_id)).toEqual([
      'classify',
      'escalate',
    ]);
    const routine = await routeTo(CATALOGUE_TRIAGE, 'triage ticket="printer toner low"');
    const done = await approveAndRun(routine.mission_id);
    expect(done.steps.map((step: { node_id: string }) => step.node_id)).toEqual(['classify', 'file']);
    expect(done.status).toBe('completed');
  });

  it('reports each candidate it cannot execute with the field named, logs it and routes on with the others', async () => {
    h.service.candidates = () => [
      { blueprint_json: json(UNEXECUTABLE.noGraph), score: 0.99 },
      { blueprint_json: json(UNEXECUTABLE.cycle), score: 0.98 },
      { blueprint_json: json(UNEXECUTABLE.unknownTool), score: 0.97 },
      { blueprint_json: json(UNEXECUTABLE.both), score: 0.96 },
      { blueprint_json: json(CATALOGUE_COMPOSED), score: 0.7 },
    ];
    const { body } = await h.api('POST', '/goal', { goal: 'four broken, one fine' }, { project });
    expect(body.kind).toBe('picker_needed');
    expect(
      body.candidates.map((candidate: { blueprint_json: string }) => JSON.parse(candidate.blueprint_json).id),
    ).toEqual(['cat-composed-brief']);
    expect(body.skipped).toEqual([
      expect.objectContaining({
        blueprint_id: 'cat-no-graph',
        score: 0.99,
        field: 'blueprint_json.agent_graph',
        message: expect.stringContaining('no graph'),
      }),
      expect.objectContaining({
        blueprint_id: 'cat-cycle',
        field: 'blueprint_json.agent_graph.edges',
        message: expect.stringContaining('cycle'),
      }),
      expect.objectContaining({
        blueprint_id: 'cat-unknown-tool',
        field: 'blueprint_json.agent_graph.nodes[0].tools[0]',
        message: expect.stringContaining('unknown tool "teleport"'),
      }),
      expect.objectContaining({ blueprint_id: 'cat-both', field: 'blueprint_json.composition' }),
    ]);
    const logged = h.logs.lines.map((line) => JSON.parse(line) as { msg?: string; field?: string });
    expect(
      logged.find(
        (line) =>
          line.msg === 'blueprint candidate skipped' && line.field === 'blueprint_json.agent_graph.nodes[0].tools[0]',
      ),
    ).toBeDefined();
  });

  it('curates samples of a catalogue blueprint into the dataset its hook names (made file-safe), in the chat format', async () => {
    const count = async () =>
      ((await h.api('GET', '/curator')).body.datasets as { name: string; format: string; sample_count: number }[]).find(
        (dataset) => dataset.name === 'catalogue-news-digest',
      );
    const before = (await count())?.sample_count ?? 0;
    const news = await routeTo(CATALOGUE_NEWS_DIGEST, 'digest topic=curation schedule="0 7 * * *"');
    await h.api('POST', `/missions/${news.mission_id}/approve`, undefined, { project });
    await h.api('POST', `/missions/${news.mission_id}/run`, undefined, { project });
    await settle(h);
    expect(await count()).toMatchObject({ format: 'openai', sample_count: before + 2 });
  });
});

describe('blueprints in our own vocabulary still route and run', () => {
  it("auto-routes and runs ours next to the catalogue's", async () => {
    const routed = await routeTo(ONE_OFF_REPORT, 'report topic=ours');
    expect((await approveAndRun(routed.mission_id)).status).toBe('completed');
    h.service.candidates = () => [
      { blueprint_json: json(VENDOR_WATCH), score: 0.8 },
      { blueprint_json: json(CATALOGUE_NEWS_DIGEST), score: 0.75 },
    ];
    const picker = (await h.api('POST', '/goal', { goal: 'mixed vocabularies' }, { project })).body;
    expect(
      picker.candidates.map((candidate: { blueprint_json: string }) => JSON.parse(candidate.blueprint_json).id),
    ).toEqual(['vendor-watch', 'cat-news-digest']);
  });
});
