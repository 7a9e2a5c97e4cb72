import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NotFoundError } from '../../errors.js';
import type { Blueprint, SampleFormat } from '../blueprints/blueprint.schema.js';
import type { CuratorStore, DatasetRecord } from './curator.store.js';
import type { StepResult } from '../missions/mission.types.js';
import { mapTurnsToSample, type SampleTurns } from './sample-format.js';

export interface CuratorOptions {
  store: CuratorStore;
  /** `<data_dir>/datasets`: where datasets curated before samples moved into the database kept them. */
  datasetsDir: string;
  /** Removes personal data (the guardrail PII detectors, wired in app.ts) from a text before it is written. */
  scrub(text: string): string;
  /** `autopilot.fine_tune.threshold`, for blueprints without learning_loop_target.trigger_after_labeled_samples. */
  defaultThreshold: number;
  now(): string;
  /** Called after each new sample with the dataset's counts, in capture order. */
  onSample(dataset: DatasetRecord, blueprint: Blueprint): Promise<void>;
}

/**
 * Turns successful mission steps into deduplicated, PII-scrubbed JSONL training samples, stored in the
 * database so a fine-tune on any replica sees the samples every replica curated.
 */
export interface Curator {
  capture(blueprint: Blueprint, step: StepResult): Promise<void>;
  /** The datasets (and formats) a blueprint's samples go to. */
  datasetsOf(blueprint: Blueprint): Array<{ name: string; format: SampleFormat }>;
  /** The dataset's JSONL text, written from the database on demand; 404 for an unknown dataset. */
  read(name: string): Promise<string>;
}

export function createCurator(options: CuratorOptions): Curator {
  // Captures run one at a time, so a dataset's samples are counted in the order they were stored.
  let queue: Promise<void> = Promise.resolve();
  const legacyPath = (name: string) => join(options.datasetsDir, `${name}.jsonl`);

  async function write(blueprint: Blueprint, turns: SampleTurns) {
    const threshold = thresholdOf(blueprint) ?? options.defaultThreshold;
    for (const { name, format } of datasetsOf(blueprint)) {
      const line = JSON.stringify(mapTurnsToSample(format, turns));
      const hash = createHash('sha256').update(line).digest('hex');
      await options.store.ensureDataset({ name, format, blueprint_id: blueprint.id, threshold }, options.now());
      if (!(await options.store.addSample(name, hash, line, options.now()))) continue;
      await options.onSample(await options.store.countSample(name, hash, options.now()), blueprint);
    }
  }

  return {
    capture(blueprint, step) {
      if (step.status !== 'completed' || step.error || !step.output.trim()) return Promise.resolve();
      const text = (role: string) => step.messages.find((message) => message.role === role)?.content ?? '';
      // The full output, never the preview; the assistant text is the step's output as the run returned it.
      const turns = {
        system: options.scrub(text('system')),
        user: options.scrub(text('user')),
        assistant: options.scrub(step.output),
      };
      const next = queue.then(() => write(blueprint, turns));
      queue = next.catch(() => undefined);
      return next;
    },
    datasetsOf,
    async read(name) {
      const dataset = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(name) ? await options.store.get(name) : undefined;
      if (!dataset) throw new NotFoundError(`No dataset named "${name}"`, 'dataset_not_found');
      const { lines, legacy } = await options.store.lines(name);
      // Samples curated before they were stored in the database come first, from their file.
      const older = legacy > 0 ? await readFile(legacyPath(name), 'utf8').catch(() => '') : '';
      return older + lines.map((line) => `${line}\n`).join('');
    },
  };
}

function datasetsOf(blueprint: Blueprint): Array<{ name: string; format: SampleFormat }> {
  const hooks = blueprint.training_data_hooks === undefined ? [] : [blueprint.training_data_hooks].flat();
  if (hooks.length === 0) return [{ name: datasetNameOf(blueprint.id), format: 'openai' }];
  return hooks.map((hook) => ({ name: hook.dataset ?? datasetNameOf(blueprint.id), format: hook.format }));
}

function thresholdOf(blueprint: Blueprint): number | undefined {
  const target = blueprint.learning_loop_target;
  return typeof target === 'object' ? target.trigger_after_labeled_samples : undefined;
}

/** A blueprint id as a file-safe dataset name. */
export function datasetNameOf(blueprintId: string): string {
  const safe = blueprintId.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^[._-]+/, '');
  return (safe || 'blueprint').slice(0, 100);
}
