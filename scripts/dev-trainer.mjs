// The local trainer for the offline development model (docs/autopilot.md, "Curated sample → fine-tune"):
//   node scripts/dev-trainer.mjs <dataset.jsonl> <base_model> <output_dir>
// It does what `autopilot.fine_tune.command` must do, without a GPU or a download: it reads the training file
// (JSONL in the openai, alpaca or sharegpt format), refuses a file with no usable sample, writes what it
// "trained" to <output_dir>/model.json and prints {"model": "<id>"} as its last stdout line. The id is new for
// every job (<base_model>-<job folder>); served by a `type: dev` provider it answers like dev/echo, so the
// takeover shows in each step's model_used. A real trainer (axolotl, Unsloth, …) takes its place unchanged.
/* global process, console -- Node's globals: this file is plain JavaScript, outside the TypeScript project */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const [dataset, baseModel, outputDir] = process.argv.slice(2);
if (!dataset || !baseModel || !outputDir) {
  console.error('usage: node scripts/dev-trainer.mjs <dataset.jsonl> <base_model> <output_dir>');
  process.exit(2);
}

/**
 * The `text` of the first item of `items` (an array) whose `key` is `role`.
 * @param {unknown} items
 * @param {string} key
 * @param {string} role
 * @param {string} text
 * @returns {unknown}
 */
function find(items, key, role, text) {
  if (!Array.isArray(items)) return undefined;
  /** @type {Record<string, unknown>[]} */
  const records = items.filter((item) => typeof item === 'object' && item !== null);
  return records.find((item) => item[key] === role)?.[text];
}

/**
 * The user prompt and assistant answer of one JSONL line, or undefined when it is not a chat sample.
 * @param {string} line
 */
function turns(line) {
  /** @type {Record<string, unknown>} */
  let sample;
  try {
    /** @type {unknown} */
    const parsed = JSON.parse(line);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    sample = /** @type {Record<string, unknown>} */ (parsed);
  } catch {
    return undefined;
  }
  const user =
    find(sample.messages, 'role', 'user', 'content') ??
    find(sample.conversations, 'from', 'human', 'value') ??
    sample.instruction;
  const answer =
    find(sample.messages, 'role', 'assistant', 'content') ??
    find(sample.conversations, 'from', 'gpt', 'value') ??
    sample.output;
  return typeof user === 'string' && typeof answer === 'string' ? { user, answer } : undefined;
}

const lines = readFileSync(dataset, 'utf8').split('\n').filter(Boolean);
const samples = lines.map(turns);
const bad = samples.findIndex((sample) => sample === undefined);
if (bad >= 0) {
  console.error(`${dataset}:${bad + 1}: not a chat sample (openai messages, sharegpt conversations or alpaca)`);
  process.exit(1);
}
if (samples.length === 0) {
  console.error(`${dataset}: no samples to train on`);
  process.exit(1);
}

const model = `${baseModel}-${basename(outputDir)}`;
mkdirSync(outputDir, { recursive: true });
writeFileSync(
  join(outputDir, 'model.json'),
  `${JSON.stringify({ model, base_model: baseModel, samples: samples.length, trained_on: dataset }, null, 2)}\n`,
);
console.log(`trained ${model} on ${samples.length} samples (${join(outputDir, 'model.json')})`);
console.log(JSON.stringify({ model }));
