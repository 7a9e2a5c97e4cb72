import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAutopilot, type AutopilotHarness } from '../autopilot-harness.js';
import { downloadDataset, LEARN, longAnswer, runMission } from './learning-loop-helpers.js';

const FINE_TUNE = ['fine_tune: { provider: upstream, threshold: 3, poll_interval_ms: 5, max_poll_interval_ms: 20 }'];
const FT_MODEL = 'ft:test-model:fake:ftjob-fake1';

let h: AutopilotHarness;
beforeAll(async () => {
  h = await startAutopilot({ autopilot: FINE_TUNE, withService: false });
  h.upstream.setDefault(longAnswer);
  await h.api('POST', '/enable', { tier: 'skip' });
});
afterAll(() => h.stop());

const curator = async () => (await h.api('GET', '/curator')).body;
const modelsSeen = () => h.upstream.chatRequests().map((request) => request.body.model);

describe('learning loop with a provider fine-tuning API', () => {
  it('curates full, scrubbed, deduplicated samples and starts exactly one job at the threshold', async () => {
    const first = await runMission(h, 'alpha');
    await runMission(h, 'alpha'); // the same step again: an exact duplicate
    await runMission(h, 'beta, mail alice@example.com');
    expect((await curator()).datasets[0]).toMatchObject({
      name: 'learn-answers',
      sample_count: 2,
      threshold: 3,
      format: 'openai',
    });
    expect((await curator()).jobs).toEqual([]);
    await runMission(h, 'gamma');
    await h.app.autopilot.learning.idle();

    const { status, lines } = await downloadDataset(h, 'learn-answers');
    expect(status).toBe(200);
    expect(lines).toHaveLength(3);
    const fullOutput = first.steps[0].output as string;
    expect(fullOutput.length).toBeGreaterThan(200);
    expect(lines[0].messages.map((message: { role: string }) => message.role)).toEqual(['system', 'user', 'assistant']);
    expect(lines[0].messages[2].content).toBe(fullOutput);
    expect(JSON.stringify(lines)).not.toContain('alice@example.com');
    expect(lines[1].messages[1].content).toContain('[REDACTED_EMAIL]');

    const files = [...h.upstream.fineTuning.files.values()];
    expect(files).toHaveLength(1);
    expect(files[0].purpose).toBe('fine-tune');
    expect(
      files[0].content
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    ).toEqual(lines);
    expect([...h.upstream.fineTuning.jobs.values()]).toEqual([
      expect.objectContaining({ model: 'test-model', training_file: 'file-fake1', status: 'succeeded' }),
    ]);

    const view = await curator();
    expect(view.jobs).toEqual([
      expect.objectContaining({
        dataset: 'learn-answers',
        backend: 'provider',
        status: 'succeeded',
        sample_count: 3,
        model: `upstream/${FT_MODEL}`,
      }),
    ]);
    expect(view.datasets[0]).toMatchObject({ active_model: `upstream/${FT_MODEL}`, samples_until_fine_tune: 3 });
  });

  it("sends a later mission's steps to the fine-tuned model, and a rollback restores the previous model", async () => {
    const before = h.upstream.chatRequests().length;
    const taken = await runMission(h, 'delta');
    expect(modelsSeen().slice(before)).toEqual([FT_MODEL]);
    expect(taken.steps[0].telemetry.model_used).toBe(`upstream/${FT_MODEL}`);

    const rollback = await h.api('POST', '/models/rollback', { dataset: 'learn-answers' });
    expect(rollback).toEqual({
      status: 200,
      body: { dataset: 'learn-answers', rolled_back: `upstream/${FT_MODEL}`, active_model: null },
    });
    const after = h.upstream.chatRequests().length;
    const restored = await runMission(h, 'epsilon');
    expect(modelsSeen().slice(after)).toEqual(['test-model']);
    expect(restored.steps[0].telemetry.model_used).toBe('upstream/test-model');

    const view = await curator();
    expect(view.datasets[0].model_history).toEqual([
      expect.objectContaining({ model: `upstream/${FT_MODEL}`, rolled_back_at: expect.any(String) }),
    ]);
    // 5 samples: no second job until 3 more than the 3 the first one took.
    expect(view.datasets[0].sample_count).toBe(5);
    expect(view.jobs).toHaveLength(1);
    expect(await h.api('POST', '/models/rollback', { dataset: 'learn-answers' })).toMatchObject({
      status: 409,
      body: { error: { code: 'no_fine_tuned_model' } },
    });
    expect(await h.api('POST', '/models/rollback', { dataset: 'nope' })).toMatchObject({
      status: 404,
      body: { error: { code: 'dataset_not_found' } },
    });
    expect((await downloadDataset(h, 'nope')).status).toBe(404);
  });

  it('starts the next job only after another threshold of new samples', async () => {
    await runMission(h, 'zeta');
    await h.app.autopilot.learning.idle();
    const view = await curator();
    expect(view.jobs.map((job: { sample_count: number }) => job.sample_count)).toEqual([6, 3]);
    expect(h.upstream.fineTuning.files.size).toBe(2);
  });
});

describe('blueprint hooks', () => {
  it('writes alpaca samples to the dataset a training_data_hooks entry names, at its own threshold', async () => {
    const blueprint = {
      ...LEARN,
      id: 'alpaca-bp',
      training_data_hooks: { format: 'alpaca', dataset: 'shared-alpaca' },
      learning_loop_target: { trigger_after_labeled_samples: 50 },
    };
    await runMission(h, 'theta', blueprint);
    const { lines } = await downloadDataset(h, 'shared-alpaca');
    expect(lines).toEqual([
      {
        instruction: 'Answer about theta',
        input: '',
        output: expect.stringMatching(/^echo: Answer about theta\..*END$/),
        system: expect.stringContaining('expert'),
      },
    ]);
    expect(
      (await curator()).datasets.find((dataset: { name: string }) => dataset.name === 'shared-alpaca'),
    ).toMatchObject({ threshold: 50, blueprint_id: 'alpaca-bp' });
  });
});
