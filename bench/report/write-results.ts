import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchResults } from './bench-results.js';
import { renderReport } from './render-report.js';

const RESULTS_DIR = fileURLToPath(new URL('../results/', import.meta.url));

/**
 * A full run replaces bench/results/latest.{json,md}; a run of some scenarios writes
 * bench/results/tmp/partial.{json,md} (ignored by git), so that latest always comes from one whole run.
 */
export function writeResults(results: BenchResults, complete: boolean): string[] {
  const dir = complete ? RESULTS_DIR : join(RESULTS_DIR, 'tmp');
  const base = complete ? 'latest' : 'partial';
  mkdirSync(dir, { recursive: true });
  const json = join(dir, `${base}.json`);
  const md = join(dir, `${base}.md`);
  writeFileSync(json, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(md, renderReport(results, true));
  return [json, md];
}
