import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { backoffDelay } from '../../backoff.js';
import { sleep } from '../../sleep.js';
import type { AutopilotConfig, ProvidersConfig } from '../../config/index.js';
import type { ModelClient } from '../../llm/index.js';
import type { FineTuneJobStore } from './fine-tune-job.store.js';
import type { FineTuneJob } from './fine-tune.types.js';
import { createOpenAiFineTuningClient, TransientFineTuneError } from './openai-fine-tuning.client.js';
import { evaluateCandidate } from './promotion-evaluation.js';
import { runTrainerCommand } from './run-trainer-command.js';
import { mapSampleToTurns, mapTurnsToSample } from './sample-format.js';
import type { Logger } from '../../logger.js';

export interface FineTuneRunnerOptions {
  config: AutopilotConfig['fine_tune'];
  providers: ProvidersConfig;
  jobs: FineTuneJobStore;
  models: ModelClient;
  /** A dataset's JSONL text (the curator's, from the shared database). */
  readDataset(name: string): Promise<string>;
  /** `<data_dir>/fine-tunes`: one folder per job (training file, trainer output). */
  workDir: string;
  now(): string;
  /** Makes the job's model the active one (it succeeded and passed its evaluation). */
  promote(job: FineTuneJob): Promise<void>;
  fetch?: typeof fetch;
  log?: Pick<Logger, 'warn'>;
}

/** Drives fine-tune jobs to an end in the background; a job cut off by close() resumes from its stored state. */
export function createFineTuneRunner(options: FineTuneRunnerOptions) {
  const { config, jobs } = options;
  const live = new Set<Promise<void>>();
  const stop = new AbortController();

  async function prepare(job: FineTuneJob) {
    const lines = (await options.readDataset(job.dataset)).split('\n').filter(Boolean).slice(0, job.sample_count);
    const training = lines.slice(0, lines.length - job.held_out_count);
    // OpenAI-compatible fine-tuning APIs take the chat format only; a local trainer gets the dataset's own format.
    const body =
      job.backend === 'provider'
        ? training.map((line) => JSON.stringify(mapTurnsToSample('openai', mapSampleToTurns(line)!)))
        : training;
    const dir = join(options.workDir, job.job_id);
    await mkdir(dir, { recursive: true });
    const path = join(dir, 'training.jsonl');
    await writeFile(path, body.map((line) => `${line}\n`).join(''), 'utf8');
    return { path, dir, heldOut: lines.slice(training.length).map((line) => mapSampleToTurns(line)!) };
  }

  async function trainWithProvider(job: FineTuneJob, path: string): Promise<string> {
    const provider = options.providers[job.provider!] as {
      base_url?: string;
      api_key?: string;
      headers?: Record<string, string>;
    };
    const client = createOpenAiFineTuningClient({
      baseUrl: provider.base_url ?? 'https://api.openai.com/v1',
      apiKey: provider.api_key,
      headers: provider.headers,
      fetch: options.fetch,
    });
    if (!job.training_file_id)
      job = await jobs.update(job.job_id, {
        training_file_id: await client.uploadFile(path),
        updated_at: options.now(),
      });
    if (!job.external_job_id)
      job = await jobs.update(job.job_id, {
        external_job_id: await client.createJob(job.training_file_id!, job.base_model),
        updated_at: options.now(),
      });
    for (let polls = 0; ; polls += 1) {
      const waitMs = backoffDelay(polls + 1, {
        initial: config.poll_interval_ms,
        max: config.max_poll_interval_ms,
        factor: 1.5,
      });
      await sleep(waitMs, stop.signal);
      const state = await client.getJob(job.external_job_id!).catch((error: unknown) => {
        if (error instanceof TransientFineTuneError) return { status: 'running' as const };
        throw error;
      });
      job = await jobs.update(job.job_id, { poll_count: job.poll_count + 1, updated_at: options.now() });
      if (state.status === 'succeeded') return `${job.provider}/${state.fineTunedModel}`;
      if (state.status === 'failed') throw new Error(state.error);
    }
  }

  async function run(job: FineTuneJob) {
    try {
      if (!job.base_model) throw new Error('no base model: set autopilot.fine_tune.base_model or autopilot.model');
      job = await jobs.update(job.job_id, { status: 'running', updated_at: options.now() });
      const { path, dir, heldOut } = await prepare(job);
      let model: string;
      if (job.backend === 'provider') model = await trainWithProvider(job, path);
      else {
        const printed = await runTrainerCommand(
          config.command!,
          { dataset: path, baseModel: job.base_model, outputDir: dir },
          stop.signal,
        );
        model = `${job.provider}/${printed.model}`;
        job = await jobs.update(job.job_id, { served_base_url: printed.base_url });
      }
      const evaluation = job.evaluation && (await evaluateCandidate(options.models, model, heldOut, job.evaluation));
      const status = evaluation && !evaluation.passed ? 'rejected' : 'succeeded';
      job = await jobs.update(job.job_id, {
        status,
        model,
        evaluation,
        finished_at: options.now(),
        updated_at: options.now(),
      });
      if (status === 'succeeded') await options.promote(job);
    } catch (error) {
      // Stopped by close(): the job stays queued/running and resumes at the next start.
      if (stop.signal.aborted) return;
      await jobs.update(job.job_id, {
        status: 'failed',
        error_message: (error as Error).message,
        finished_at: options.now(),
        updated_at: options.now(),
      });
      options.log?.warn({ job_id: job.job_id, err: error }, 'fine-tune job failed');
    }
  }

  return {
    launch(job: FineTuneJob) {
      if (stop.signal.aborted) return;
      const done: Promise<void> = run(job).finally(() => live.delete(done));
      live.add(done);
    },
    /** Picks up jobs a stopped server left queued or running (a command trainer starts over). */
    async resume() {
      for (const job of await jobs.listUnfinished()) this.launch(job);
    },
    async idle() {
      while (live.size > 0) await Promise.all([...live]);
    },
    async close() {
      stop.abort();
      await this.idle();
    },
  };
}

export type FineTuneRunner = ReturnType<typeof createFineTuneRunner>;
