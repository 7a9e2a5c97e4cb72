import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadResult } from './generate-usage.js';
import type { RecorderTiming } from './time-recorder.js';
import type { QueryTiming } from './time-queries.js';

export interface EngineResult {
  engine: 'sqlite' | 'postgres';
  version: string;
  load: LoadResult;
  queries: QueryTiming[];
  recorder: RecorderTiming[];
}

export interface AnalyticsBenchResult {
  generated_at: string;
  machine: { cpus: number; cpu_model: string; memory_gb: number; node: string; platform: string };
  rows: number;
  runs_per_query: number;
  engines: EngineResult[];
}

const SLOW_MS = 200;

/** Writes analytics-aggregation.json and .md into `outDir`; returns their paths. */
export function writeReport(result: AnalyticsBenchResult, outDir: string): string[] {
  mkdirSync(outDir, { recursive: true });
  const json = join(outDir, 'analytics-aggregation.json');
  const md = join(outDir, 'analytics-aggregation.md');
  writeFileSync(json, `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(md, renderMarkdown(result));
  return [json, md];
}

function renderMarkdown(result: AnalyticsBenchResult): string {
  const { machine } = result;
  const lines = [
    '# Analytics aggregation benchmark',
    '',
    `Generated ${result.generated_at} by \`npx tsx bench/analytics/aggregation.bench.ts --rows ${result.rows}\`.`,
    `Machine: ${machine.cpus} CPUs (${machine.cpu_model}), ${machine.memory_gb} GB RAM, Node.js ${machine.node}, ${machine.platform}.`,
    `Data: ${result.rows.toLocaleString('en-US')} usage records over 90 days, 20 agents, 8 models, plus risk events; medians of ${result.runs_per_query} runs after one warm-up.`,
    '',
    '**Before** reads every usage record in the window (indexes on created_at, agent_name+created_at, model+created_at).',
    '**After** reads whole UTC days from `usage_daily` (per day, agent and model totals that the recorder keeps in the same',
    'transaction as the rows) and only the partial days at the edges of a window from `usage_records`. The benchmark checks',
    'that both give identical answers. `/analytics/risks` has no rollup (risk events are far fewer than model calls).',
    `Queries over ${SLOW_MS} ms are **bold**.`,
    '',
  ];
  for (const engine of result.engines) {
    lines.push(`## ${engine.engine} (${engine.version})`, '');
    lines.push(
      `Load: ${engine.load.rows.toLocaleString('en-US')} usage rows and ${engine.load.riskRows.toLocaleString('en-US')} risk events in ${engine.load.seconds.toFixed(1)} s (${engine.load.rowsPerSecond.toLocaleString('en-US')} rows/s, batches of 10,000 through the recorder's write store, daily totals included).`,
      '',
    );
    lines.push('| route | filter | before: raw rows (ms) | after: daily totals (ms) |', '|---|---|---:|---:|');
    for (const query of engine.queries)
      lines.push(`| ${query.route} | ${query.filter} | ${formatMs(query.rawMs)} | ${formatMs(query.dailyMs)} |`);
    lines.push(
      '',
      'Group commit (`createUsageRecorder`), each caller awaiting its record before sending the next; `flushIntervalMs` 0 is the default:',
      '',
    );
    lines.push(
      '| flushIntervalMs | concurrent callers | records | transactions | records/s | p50 commit (ms) | p99 commit (ms) |',
      '|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const timing of engine.recorder) {
      lines.push(
        `| ${timing.flushIntervalMs} | ${timing.concurrency} | ${timing.records} | ${timing.transactions} | ${timing.recordsPerSecond.toLocaleString('en-US')} | ${timing.p50Ms} | ${timing.p99Ms} |`,
      );
    }
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

function formatMs(ms: number | null): string {
  if (ms === null) return '–';
  const text = ms.toFixed(1);
  return ms > SLOW_MS ? `**${text}**` : text;
}
