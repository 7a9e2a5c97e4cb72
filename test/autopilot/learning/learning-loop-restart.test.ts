import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startAutopilot, type AutopilotHarness } from '../autopilot-harness.js';
import { downloadDataset, longAnswer, runMission } from './learning-loop-helpers.js';

const started: AutopilotHarness[] = [];
const scripts = mkdtempSync(join(tmpdir(), 'trainer-'));
afterAll(async () => {
  await Promise.all(started.map((h) => h.stop()));
  rmSync(scripts, { recursive: true, force: true });
});

async function boot(autopilot: string[]) {
  const h = await startAutopilot({ autopilot, withService: false });
  started.push(h);
  h.upstream.setDefault(longAnswer);
  await h.api('POST', '/enable', { tier: 'skip' });
  return h;
}

describe('fine-tune jobs across restarts', () => {
  it('resumes polling a job that was running when the server stopped, without uploading again', async () => {
    const h = await boot([
      'fine_tune: { provider: upstream, threshold: 2, poll_interval_ms: 2, max_poll_interval_ms: 5 }',
    ]);
    h.upstream.fineTuning.succeedAfterPolls = Infinity;
    await runMission(h, 'one');
    await runMission(h, 'two');
    await vi.waitFor(
      async () =>
        expect((await h.api('GET', '/curator')).body.jobs[0]).toMatchObject({
          status: 'running',
          poll_count: expect.any(Number),
        }),
      { timeout: 10_000 },
    );
    await vi.waitFor(() => expect([...h.upstream.fineTuning.jobs.values()][0].polls).toBeGreaterThan(0), {
      timeout: 10_000,
    });
    await h.restart();
    h.upstream.fineTuning.succeedAfterPolls = 0;
    await h.app.autopilot.learning.idle();
    const view = (await h.api('GET', '/curator')).body;
    expect(view.jobs).toEqual([expect.objectContaining({ status: 'succeeded', external_job_id: 'ftjob-fake1' })]);
    expect(view.datasets[0].active_model).toBe('upstream/ft:test-model:fake:ftjob-fake1');
    expect(h.upstream.fineTuning.files.size).toBe(1);
    expect(h.upstream.fineTuning.jobs.size).toBe(1);
  });
});

describe('command backend', () => {
  it('runs the trainer without a shell and serves the printed model through serve_provider', async () => {
    const script = join(scripts, 'train.mjs');
    writeFileSync(
      script,
      [
        "import { readFileSync, writeFileSync } from 'node:fs';",
        'const [dataset, baseModel, outputDir] = process.argv.slice(2);',
        "writeFileSync(outputDir + '/args.json', JSON.stringify({ dataset, baseModel, outputDir, lines: readFileSync(dataset, 'utf8').trim().split('\\n').length }));",
        "console.log('training… done');",
        "console.log(JSON.stringify({ model: 'local-ft:' + baseModel, base_url: 'http://127.0.0.1:11434/v1' }));",
      ].join('\n'),
    );
    chmodSync(script, 0o755);
    const command = `node "${script}" {dataset} {base_model} {output_dir}`;
    const h = await boot([
      `fine_tune: { command: ${JSON.stringify(command)}, serve_provider: upstream, threshold: 2 }`,
    ]);
    await runMission(h, 'first');
    await runMission(h, 'second');
    await h.app.autopilot.learning.idle();

    const job = (await h.api('GET', '/curator')).body.jobs[0];
    expect(job).toMatchObject({
      backend: 'command',
      status: 'succeeded',
      model: 'upstream/local-ft:test-model',
      served_base_url: 'http://127.0.0.1:11434/v1',
    });
    const args = JSON.parse(readFileSync(join(h.dataDir, 'fine-tunes', job.job_id, 'args.json'), 'utf8'));
    expect(args).toMatchObject({
      baseModel: 'test-model',
      dataset: join(h.dataDir, 'fine-tunes', job.job_id, 'training.jsonl'),
      lines: 2,
    });
    expect((await downloadDataset(h, 'learn-answers')).lines).toHaveLength(2);

    const before = h.upstream.chatRequests().length;
    await runMission(h, 'third');
    expect(
      h.upstream
        .chatRequests()
        .slice(before)
        .map((request) => request.body.model),
    ).toEqual(['local-ft:test-model']);
  });
});
