import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_BLUEPRINTS_DIR, loadLocalBlueprints } from '../../../src/autopilot/blueprints/local-blueprints.js';
import { createLocalRanker } from '../../../src/autopilot/routing/rank-local-blueprints.js';
import { ConfigError } from '../../../src/errors.js';
import { tempDataDir } from '../../support/databases.js';
import { startAutopilot, settle, type AutopilotHarness } from '../autopilot-harness.js';
import { json, ONE_OFF_REPORT, scored } from '../blueprints.js';
import { CATALOGUE_NEWS_DIGEST } from '../catalogue-blueprints.js';

const BUNDLED = [
  'classify-and-route',
  'daily-digest',
  'research-report',
  'summarise-and-notify',
  'webhook-triage',
  'weekly-digest',
];
const checks = {
  toolExists: (name: string) => name === 'get_current_time',
  modelExists: () => true,
  defaultModel: 'dev/echo',
};

describe('the bundled blueprint library and its ranking', () => {
  const library = loadLocalBlueprints({ bundledDir: BUNDLED_BLUEPRINTS_DIR, checks });
  const rank = createLocalRanker(library.map((entry) => entry.blueprint));

  it('every bundled blueprint validates and carries example goals', () => {
    expect(library.map((entry) => entry.blueprint.id).sort()).toEqual(BUNDLED);
    for (const entry of library)
      expect(entry.blueprint.example_goals.length, entry.blueprint.id).toBeGreaterThanOrEqual(3);
  });

  it('each example goal ranks its own blueprint first, at or above the auto-route threshold', () => {
    for (const { blueprint } of library) {
      for (const goal of blueprint.example_goals) {
        const [top] = rank(goal);
        expect(top, goal).toMatchObject({ id: blueprint.id });
        expect(top.score, goal).toBeGreaterThanOrEqual(0.85);
      }
    }
  });

  it.each([
    ['Every morning send me the top stories about renewable energy', 'daily-digest'],
    ['write a report comparing postgres and mysql', 'research-report'],
    ['route incoming tickets to teams', 'classify-and-route'],
  ])('a paraphrase (%s) ranks %s first, at or above the picker threshold', (goal, id) => {
    const [top] = rank(goal);
    expect(top.id).toBe(id);
    expect(top.score).toBeGreaterThanOrEqual(0.65);
  });

  it.each(['Book me a flight to Paris', 'watch vendor prices vendors=acme,globex', 'goal 0.85', 'news'])(
    'an unrelated or vague goal (%s) stays below the picker threshold',
    (goal) => {
      expect(rank(goal)[0]?.score ?? 0).toBeLessThan(0.65);
    },
  );
});

describe('local candidates in routing and synthesis', () => {
  let h: AutopilotHarness;
  beforeAll(async () => {
    h = await startAutopilot();
  });
  afterAll(() => h.stop());

  it('lists the library over HTTP, shows one blueprint and 404s an unknown id', async () => {
    const list = (await h.api('GET', '/blueprints')).body;
    expect(list.map((item: { id: string }) => item.id).sort()).toEqual(BUNDLED);
    expect(list.find((item: { id: string }) => item.id === 'weekly-digest')).toMatchObject({
      source: 'bundled',
      mode: 'recurring',
      slots: expect.arrayContaining([
        expect.objectContaining({ name: 'schedule', type: 'cron', default: '0 9 * * 1' }),
      ]),
    });
    const shown = (await h.api('GET', '/blueprints/classify-and-route')).body;
    expect(shown.nodes.map((node: { id: string }) => node.id)).toEqual(['classify', 'escalate', 'route']);
    expect((await h.api('GET', '/blueprints/nope')).body.error.code).toBe('blueprint_not_found');
  });

  it('merges hosted and local candidates, each marked with its source', async () => {
    await h.api('POST', '/enable', { tier: 'anonymous' });
    h.service.candidates = () => scored(0.7);
    const { body } = await h.api('POST', '/goal', { goal: 'write a report' });
    expect(body.kind).toBe('picker_needed');
    expect(
      body.candidates.map((candidate: { source: string; blueprint_json: string }) => [
        candidate.source,
        JSON.parse(candidate.blueprint_json).id,
      ]),
    ).toEqual([
      ['service', 'report-0'],
      ['local', 'research-report'],
    ]);
  });

  it('auto-routes to a local blueprint when it fits and the hosted service has nothing', async () => {
    h.service.candidates = () => [];
    const { body } = await h.api('POST', '/goal', {
      goal: 'Classify incoming support tickets and route them to the right team message="printer broken"',
    });
    expect(body).toMatchObject({
      kind: 'auto_routed',
      blueprint_id: 'classify-and-route',
      slots: { message: 'printer broken' },
    });
  });

  it('in tier skip, goal answers synthesis_needed and synthesis builds the draft from the best local blueprint, which runs', async () => {
    await h.api('POST', '/enable', { tier: 'skip' });
    const goal = 'Summarise the news every Monday at 9';
    expect((await h.api('POST', '/goal', { goal })).body).toMatchObject({
      kind: 'synthesis_needed',
      reason: 'tier_skip',
    });
    const before = h.service.requests.length;
    const draft = (await h.api('POST', '/synthesize', { goal })).body;
    expect(h.service.requests.length).toBe(before);
    expect(draft).toMatchObject({
      source: 'local',
      blueprint_id: 'weekly-digest',
      status: 'draft',
      schedule: '0 9 * * 1',
      slots: { schedule: '0 9 * * 1', max_items: 8 },
      missing_slots: [],
    });
    expect(draft.confidence).toBeGreaterThanOrEqual(0.85);
    expect((await h.api('POST', `/missions/${draft.mission_id}/approve`)).body).toMatchObject({
      status: 'scheduled',
      next_run_at: '2026-11-23T09:00:00.000Z',
    });
    await h.api('POST', `/missions/${draft.mission_id}/run`);
    await settle(h);
    const done = (await h.api('GET', `/missions/${draft.mission_id}`)).body;
    expect(done.runs[0]).toMatchObject({ status: 'completed', trigger: 'manual' });
    expect(done.steps.map((step: { node_id: string; status: string }) => [step.node_id, step.status])).toEqual([
      ['gather', 'completed'],
      ['summarise', 'completed'],
    ]);
    expect(done.steps[0].messages[1].content).toContain(`Task: ${goal}`);
  });

  it('validates a blueprint of either vocabulary, naming each bad field', async () => {
    const ok = await h.api('POST', '/blueprints/validate', { blueprint_json: CATALOGUE_NEWS_DIGEST });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: 'cat-news-digest', source: 'request', unknown_fields: ['x_vendor_meta'] });
    const bad = await h.api('POST', '/blueprints/validate', {
      blueprint_json: json({ ...ONE_OFF_REPORT, tools_required: ['teleport'] }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_blueprint', param: 'blueprint_json.tools_required[0]' });
  });
});

describe("the operator's blueprints_dir", () => {
  it('adds its blueprints to the library and routes to them', async () => {
    const dir = tempDataDir();
    mkdirSync(join(dir.dataDir, 'bp'));
    writeFileSync(
      join(dir.dataDir, 'bp', 'invoices.yaml'),
      [
        'id: invoice-chaser',
        'title: Invoice chaser',
        'description: Chases unpaid invoices with a polite reminder',
        'example_goals: ["chase unpaid invoices every Friday", "remind customers about overdue invoices"]',
        'agent_graph: { entry: remind, nodes: [{ id: remind, prompt: "Write a reminder: {{goal}}" }] }',
      ].join('\n'),
    );
    const h = await startAutopilot({ withService: false, autopilot: [`blueprints_dir: "${join(dir.dataDir, 'bp')}"`] });
    try {
      await h.api('POST', '/enable', { tier: 'anonymous' });
      expect((await h.api('GET', '/blueprints/invoice-chaser')).body).toMatchObject({
        source: 'local',
        title: 'Invoice chaser',
      });
      expect((await h.api('POST', '/goal', { goal: 'remind customers about overdue invoices' })).body).toMatchObject({
        kind: 'auto_routed',
        blueprint_id: 'invoice-chaser',
      });
    } finally {
      await h.stop();
      dir.remove();
    }
  });

  it('refuses to start with a bad blueprint file, naming the file and the field', async () => {
    const dir = tempDataDir();
    writeFileSync(
      join(dir.dataDir, 'broken.json'),
      JSON.stringify({ ...ONE_OFF_REPORT, tools_required: ['teleport'] }),
    );
    try {
      const failure = startAutopilot({ autopilot: [`blueprints_dir: "${dir.dataDir}"`] });
      await expect(failure).rejects.toThrow(ConfigError);
      await expect(failure).rejects.toThrow(
        /broken\.json: invalid blueprint: blueprint\.tools_required\[0\]: unknown tool "teleport"/,
      );
    } finally {
      dir.remove();
    }
  });
});
