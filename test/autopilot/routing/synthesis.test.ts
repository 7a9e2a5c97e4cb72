import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAutopilot, type AutopilotHarness } from '../autopilot-harness.js';
import { json, ONE_OFF_REPORT, VENDOR_WATCH } from '../blueprints.js';

let h: AutopilotHarness;
beforeAll(async () => {
  h = await startAutopilot();
});
afterAll(() => h.stop());

describe('slots from natural language with autopilot.model', () => {
  it('fills slots the goal states in words, validated, with key=value pairs still winning', async () => {
    await h.api('POST', '/enable', { tier: 'free' });
    h.service.candidates = () => [{ blueprint_json: json(VENDOR_WATCH), score: 0.9 }];
    h.upstream.enqueue({
      kind: 'text',
      text: 'Here you go:\n```json\n{"vendors": ["acme", "initech"], "schedule": "0 9 * * 1", "max_items": "lots"}\n```',
    });
    const { body } = await h.api('POST', '/goal', { goal: 'watch acme and initech every Monday at 9 max_items=7' });
    expect(body).toMatchObject({
      kind: 'auto_routed',
      slots: { vendors: ['acme', 'initech'], schedule: '0 9 * * 1', max_items: 7 },
      missing_slots: [],
    });
    const extraction = h.upstream.chatRequests().at(-1)!.body;
    expect(extraction.messages.at(-1).content).toContain('Goal: watch acme and initech every Monday at 9');
  });

  it('drops what the model gets wrong and leaves required slots missing', async () => {
    h.service.candidates = () => [{ blueprint_json: json(VENDOR_WATCH), score: 0.9 }];
    h.upstream.enqueue({ kind: 'text', text: '{"vendors": ["acme"], "schedule": "mondays at nine"}' });
    const { body } = await h.api('POST', '/goal', { goal: 'watch acme at the usual time' });
    expect(body).toMatchObject({
      kind: 'auto_routed',
      slots: { vendors: ['acme'], max_items: 5 },
      missing_slots: ['schedule'],
    });
  });
});

describe('POST /synthesize', () => {
  it('creates a draft from the hosted generate in tiers anonymous/free', async () => {
    await h.api('POST', '/enable', { tier: 'free' });
    h.service.generated = () => ({ blueprint_json: json(ONE_OFF_REPORT), confidence: 0.72 });
    h.upstream.enqueue({ kind: 'text', text: '{"topic": "tide tables"}' });
    const answer = await h.api('POST', '/synthesize', { goal: 'report on tide tables' }, { project: 'synth' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      source: 'service',
      confidence: 0.72,
      status: 'draft',
      project_id: 'synth',
      blueprint_id: 'one-off-report',
      slots: { topic: 'tide tables' },
    });
    const generate = h.service.calls('/v1/blueprints/generate').at(-1)!;
    expect(generate.verified).toBe(true);
    expect(generate.body).toMatchObject({
      goal: 'report on tide tables',
      context: { project_id: 'synth', available_tools: expect.arrayContaining(['get_current_time']) },
    });
  });

  it('in tier skip asks autopilot.model to write the blueprint, without calling the service', async () => {
    await h.api('POST', '/enable', { tier: 'skip' });
    const before = h.service.requests.length;
    h.upstream.enqueue(
      { kind: 'text', text: 'not a blueprint' },
      { kind: 'text', text: json({ ...ONE_OFF_REPORT, id: 'model-written' }) },
      { kind: 'text', text: '{}' },
    );
    const answer = await h.api('POST', '/synthesize', { goal: 'write about topic=owls' });
    expect(answer.body).toMatchObject({
      source: 'model',
      confidence: null,
      blueprint_id: 'model-written',
      slots: { topic: 'owls' },
    });
    expect(h.service.requests.length).toBe(before);
    const retry = h.upstream.chatRequests().at(-2)!.body;
    expect(retry.messages.at(-1).content).toContain('Your previous answer was rejected');
  });

  it('answers 502 when the model cannot produce a valid blueprint', async () => {
    h.upstream.enqueue({ kind: 'text', text: '{"id": "x"}' }, { kind: 'text', text: 'still nothing' });
    const answer = await h.api('POST', '/synthesize', { goal: 'impossible' });
    expect(answer.status).toBe(502);
    expect(answer.body.error.code).toBe('synthesis_failed');
  });

  it('answers 503 with neither the service nor autopilot.model', async () => {
    const bare = await startAutopilot({ withService: false, withModel: false });
    try {
      await bare.api('POST', '/enable', { tier: 'anonymous' });
      const answer = await bare.api('POST', '/synthesize', { goal: 'anything' });
      expect(answer.status).toBe(503);
      expect(answer.body.error).toMatchObject({ code: 'synthesis_unavailable' });
      expect(answer.body.error.message).toContain('not_configured');
    } finally {
      await bare.stop();
    }
  });
});
