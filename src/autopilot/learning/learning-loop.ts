import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { AutopilotConfig, ProvidersConfig } from '../../config/index.js';
import type { Database } from '../../db/index.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import type { ModelClient } from '../../llm/index.js';
import type { Kysely } from 'kysely';
import type { Blueprint } from '../blueprints/blueprint.schema.js';
import { createCurator } from './curator.service.js';
import { createCuratorStore, type DatasetRecord } from './curator.store.js';
import { createFineTuneJobStore } from './fine-tune-job.store.js';
import { createFineTuneRunner } from './fine-tune-runner.js';
import type { FineTuneJob, ModelActivation } from './fine-tune.types.js';
import type { StepResult } from '../missions/mission.types.js';
import { createModelActivationStore } from './model-activation.store.js';
import type { Logger } from '../../logger.js';

export interface LearningLoopOptions {
  config: AutopilotConfig;
  db: Kysely<Database>;
  providers: ProvidersConfig;
  models: ModelClient;
  dataDir: string;
  scrub: (text: string) => string;
  now: () => string;
  fetch?: typeof fetch;
  log?: Pick<Logger, 'warn'>;
}

export interface DatasetOverview extends DatasetRecord {
  /** New samples still needed before the next fine-tune starts. */
  samples_until_fine_tune: number;
  active_model: string | null;
  model_history: ModelActivation[];
}

export interface CuratorOverview {
  threshold: number;
  backend: 'provider' | 'command' | null;
  scope: 'blueprint' | 'all';
  datasets: DatasetOverview[];
  jobs: FineTuneJob[];
}

/** Curator → fine-tune trigger → takeover → rollback: the loop that turns mission answers into a model. */
export function createLearningLoop(options: LearningLoopOptions) {
  const fineTune = options.config.fine_tune;
  const backend = fineTune.provider ? 'provider' : fineTune.command ? 'command' : null;
  const store = createCuratorStore(options.db);
  const jobs = createFineTuneJobStore(options.db);
  const activations = createModelActivationStore(options.db);
  const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
  const runner = createFineTuneRunner({
    config: fineTune,
    providers: options.providers,
    jobs,
    models: options.models,
    workDir: join(options.dataDir, 'fine-tunes'),
    now: options.now,
    fetch: options.fetch,
    log: options.log,
    readDataset: (name) => curator.read(name),
    promote: (job) =>
      activations.activate({
        activation_id: newId('act'),
        dataset: job.dataset,
        model: job.model!,
        job_id: job.job_id,
        activated_at: options.now(),
        rolled_back_at: null,
      }),
  });

  async function maybeStartFineTune(dataset: DatasetRecord, blueprint: Blueprint) {
    if (!backend || dataset.sample_count - dataset.triggered_count < dataset.threshold) return;
    const target = blueprint.learning_loop_target;
    const criteria = typeof target === 'object' ? target.promotion_criteria : undefined;
    // Held-out samples must leave something to train on.
    const heldOut = criteria ? Math.min(criteria.held_out_samples, dataset.sample_count - 1) : 0;
    const now = options.now();
    const job = await store.claimTrigger(dataset, (sampleCount): FineTuneJob => ({
      job_id: newId('ftj'),
      dataset: dataset.name,
      backend,
      provider: fineTune.provider ?? fineTune.serve_provider ?? null,
      // The blueprint's own base model (the catalogue's learning_loop_target.base_model) wins over the configured one.
      base_model:
        (typeof target === 'object' ? target.base_model : undefined) ??
        fineTune.base_model ??
        options.config.model?.slice(options.config.model.indexOf('/') + 1) ??
        '',
      status: 'queued',
      sample_count: sampleCount,
      held_out_count: heldOut,
      training_file_id: null,
      external_job_id: null,
      model: null,
      served_base_url: null,
      evaluation: criteria && heldOut > 0 ? { held_out_samples: heldOut, min_overlap: criteria.min_overlap } : null,
      error_message: null,
      poll_count: 0,
      created_at: now,
      updated_at: now,
      finished_at: null,
    }));
    if (job) runner.launch(job);
  }

  const curator = createCurator({
    store,
    datasetsDir: join(options.dataDir, 'datasets'),
    scrub: options.scrub,
    defaultThreshold: fineTune.threshold,
    now: options.now,
    onSample: maybeStartFineTune,
  });

  return {
    capture: (blueprint: Blueprint, step: StepResult) => curator.capture(blueprint, step),
    /** The model that has taken over this blueprint's steps (scope blueprint) or every step (scope all), if any. */
    async modelFor(blueprint: Blueprint): Promise<string | undefined> {
      if (fineTune.scope === 'all') return (await activations.active())?.model;
      for (const { name } of curator.datasetsOf(blueprint)) {
        const active = await activations.active(name);
        if (active) return active.model;
      }
      return undefined;
    },
    async overview(): Promise<CuratorOverview> {
      const datasets = await Promise.all(
        (await store.list()).map(async (dataset) => ({
          ...dataset,
          samples_until_fine_tune: Math.max(0, dataset.threshold - (dataset.sample_count - dataset.triggered_count)),
          active_model: (await activations.active(dataset.name))?.model ?? null,
          model_history: await activations.history(dataset.name),
        })),
      );
      return { threshold: fineTune.threshold, backend, scope: fineTune.scope, datasets, jobs: await jobs.list() };
    },
    datasetFile: (name: string) => curator.read(name),
    /** Returns the dataset to the model active before its current one (or to the configured models when none). */
    async rollback(dataset: string) {
      if (!(await store.get(dataset))) throw new NotFoundError(`No dataset named "${dataset}"`, 'dataset_not_found');
      const rolledBack = await activations.rollback(dataset, options.now());
      if (!rolledBack)
        throw new ConflictError(
          `Dataset "${dataset}" has no active fine-tuned model to roll back`,
          'no_fine_tuned_model',
        );
      return {
        dataset,
        rolled_back: rolledBack.model,
        active_model: (await activations.active(dataset))?.model ?? null,
      };
    },
    resume: () => runner.resume(),
    idle: () => runner.idle(),
    close: () => runner.close(),
  };
}

export type LearningLoop = ReturnType<typeof createLearningLoop>;
