import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAutopilot, settle, type AutopilotHarness } from '../autopilot-harness.js';
import { json } from '../blueprints.js';
import { downloadDataset, longAnswer } from './learning-loop-helpers.js';

// The whole loop (routing, mission, execution, curator, fine-tune, takeover, rollback, healing) for a
// blueprint the fake catalogue serves in its own vocabulary.
const CATALOGUE_ANSWERS = {
  id: 'cat-answers',
  title: 'Answers (catalogue)',
  slots: { topic: { type_: 'string', required: true, description: 'what to answer about' } },
  prompts: { answer: 'Answer about {{topic}}' },
  composition: {
    steps: [
      {
        id: 'answer',
        kind: 'llm',
        role: 'expert',
        prompt_ref: 'answer',
        model_ref: 'vendor/some-model',
        max_steps: 2,
        tools: [],
      },
    ],
  },
  success_criteria: { dataset_id: 'eval-answers', metrics: [{ name: 'helpfulness', target: 0.8 }] },
  training_data_hooks: [{ event: 'step_completed', dataset: 'catalogue/answers', format: 'chat' }],
  learning_loop_target: {
    trigger_after_labeled_samples: 2,
    base_model: 'small-base',
    eval_gate_dataset_id: 'eval-answers',
  },
  catalogue_revision: 7,
};
// The fake names a fine-tuned model after its base: the blueprint's base_model was trained.
const FT_MODEL = 'ft:small-base:fake:ftjob-fake1';

let h: AutopilotHarness;
beforeAll(async () => {
  h = await startAutopilot({
    autopilot: ['fine_tune: { provider: upstream, threshold: 100, poll_interval_ms: 5, max_poll_interval_ms: 20 }'],
  });
  h.upstream.setDefault(longAnswer);
  h.service.candidates = () => [{ blueprint_json: json(CATALOGUE_ANSWERS), score: 0.95 }];
  await h.api('POST', '/enable', { tier: 'free' });
});
afterAll(() => h.stop());

async function routeAndRun(topic: string) {
  const routed = (await h.api('POST', '/goal', { goal: `answer topic="${topic}"` })).body;
  expect(routed).toMatchObject({ kind: 'auto_routed', blueprint_id: 'cat-answers', slots: { topic } });
  await h.api('POST', `/missions/${routed.mission_id}/approve`);
  await settle(h);
  return (await h.api('GET', `/missions/${routed.mission_id}`)).body;
}

describe('the learning loop with a catalogue-vocabulary blueprint', () => {
  it("curates into the hook's dataset, fine-tunes at the blueprint's threshold, takes over and rolls back", async () => {
    const first = await routeAndRun('alpha');
    expect(first).toMatchObject({ status: 'completed', blueprint_unknown_fields: ['catalogue_revision'] });
    await routeAndRun('beta');
    await h.app.autopilot.learning.idle();
    const { lines } = await downloadDataset(h, 'catalogue-answers');
    expect(lines).toHaveLength(2);
    expect(lines[0].messages[1].content).toBe('Answer about alpha');
    const curator = (await h.api('GET', '/curator')).body;
    expect(curator.jobs).toEqual([
      expect.objectContaining({ dataset: 'catalogue-answers', status: 'succeeded', model: `upstream/${FT_MODEL}` }),
    ]);
    const taken = await routeAndRun('gamma');
    expect(taken.steps[0].telemetry.model_used).toBe(`upstream/${FT_MODEL}`);
    expect((await h.api('POST', '/models/rollback', { dataset: 'catalogue-answers' })).status).toBe(200);
    expect((await routeAndRun('delta')).steps[0].telemetry.model_used).toBe('upstream/test-model');
  });

  it('heals a failed catalogue mission by retrying the failed step', async () => {
    h.upstream.enqueue({ kind: 'error', status: 502 });
    const failed = await routeAndRun('epsilon');
    expect(failed.status).toBe('failed');
    const id = failed.mission_id as string;
    const healing = (await h.api('GET', `/missions/${id}/healing`)).body;
    expect(healing[0]).toMatchObject({
      id: 'upstream.retry_with_backoff',
      apply: { action: 'retry_step', params: { node_id: 'answer' } },
    });
    await h.api('POST', `/missions/${id}/healing/upstream.retry_with_backoff/apply`, {});
    await settle(h);
    expect((await h.api('GET', `/missions/${id}`)).body.status).toBe('completed');
  });
});
