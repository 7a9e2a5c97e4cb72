// Aggregation over 1 million usage records on SQLite and PostgreSQL:
// `npx tsx bench/analytics/aggregation.bench.ts [--rows N] [--runs N] [--engines sqlite,postgres] [--out DIR]`.
import { cpus, totalmem } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { openBenchDatabase, type BenchEngine } from './bench-databases.js';
import { loadUsage } from './generate-usage.js';
import { timeQueries } from './time-queries.js';
import { timeRecorder } from './time-recorder.js';
import { writeReport, type AnalyticsBenchResult, type EngineResult } from './write-report.js';

export interface AnalyticsBenchOptions {
  /** Usage records to load; default 1,000,000. */
  rows?: number;
  /** Risk events to load; default rows / 10. */
  riskRows?: number;
  /** Timed runs per query (after one warm-up); default 5. */
  runs?: number;
  engines?: BenchEngine[];
  /** A PostgreSQL URL allowed to create and drop databases. */
  postgresAdminUrl?: string;
  /** Where the .json and .md go; default bench/results. */
  outDir?: string;
  log?: (line: string) => void;
}

export type { AnalyticsBenchResult };

/** [concurrent callers, records]: one client at a time, a busy gateway, a burst. */
const RECORDER_LOADS = [
  [1, 500],
  [16, 5_000],
  [100, 20_000],
] as const;
const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** Loads the rows into a fresh database per engine, times every analytics query, writes the report. */
export async function runAnalyticsBench(options: AnalyticsBenchOptions = {}): Promise<AnalyticsBenchResult> {
  const rows = options.rows ?? 1_000_000;
  const runs = options.runs ?? 5;
  const log = options.log ?? ((line: string) => console.log(line));
  const engines: EngineResult[] = [];
  for (const engine of options.engines ?? ['sqlite', 'postgres']) {
    const database = await openBenchDatabase(engine, options.postgresAdminUrl ?? DEFAULT_POSTGRES_URL);
    try {
      log(`${engine} (${database.version}): loading ${rows.toLocaleString('en-US')} usage records…`);
      const load = await loadUsage(database.handle.db, rows, options.riskRows ?? Math.floor(rows / 10));
      log(`  loaded in ${load.seconds.toFixed(1)} s (${load.rowsPerSecond} rows/s)`);
      await database.settle();
      const queries = await timeQueries(database.handle, runs, log);
      const recorder = [];
      for (const flushIntervalMs of [0, 5]) {
        for (const [concurrency, records] of RECORDER_LOADS) {
          const timing = await timeRecorder(database.handle, { records, concurrency, flushIntervalMs });
          log(
            `  recorder flushIntervalMs=${flushIntervalMs} x${concurrency}: ${timing.recordsPerSecond} records/s in ${timing.transactions} transactions, p50 ${timing.p50Ms} ms, p99 ${timing.p99Ms} ms`,
          );
          recorder.push(timing);
        }
      }
      engines.push({ engine, version: database.version, load, queries, recorder });
    } finally {
      await database.drop();
    }
  }
  const result: AnalyticsBenchResult = {
    generated_at: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      cpu_model: cpus()[0]?.model ?? 'unknown',
      memory_gb: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
    },
    rows,
    runs_per_query: runs,
    engines,
  };
  const written = writeReport(result, options.outDir ?? fileURLToPath(new URL('../results/', import.meta.url)));
  log(`wrote ${written.join(', ')}`);
  return result;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      rows: { type: 'string' },
      runs: { type: 'string' },
      engines: { type: 'string' },
      out: { type: 'string' },
    },
  });
  await runAnalyticsBench({
    rows: values.rows ? Number(values.rows) : undefined,
    runs: values.runs ? Number(values.runs) : undefined,
    engines: values.engines ? (values.engines.split(',') as BenchEngine[]) : undefined,
    postgresAdminUrl: process.env.TEST_POSTGRES_URL,
    outDir: values.out,
  });
}
