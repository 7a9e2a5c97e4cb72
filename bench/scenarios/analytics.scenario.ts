import { fileURLToPath } from 'node:url';
import { runAnalyticsBench } from '../analytics/aggregation.bench.js';
import type { BenchEngine } from '../analytics/bench-databases.js';
import { BENCH_SETTINGS } from '../bench-settings.js';
import type { Measurement } from '../report/bench-results.js';
import type { Scenario } from './scenario.js';

const { rows, runs } = BENCH_SETTINGS.analytics;
/** Its own report goes to the ignored tmp folder; latest.json carries the numbers. */
const OUT_DIR = fileURLToPath(new URL('../results/tmp/analytics/', import.meta.url));

/** The analytics queries over 1M usage rows, through bench/analytics (SQLite; PostgreSQL too when TEST_POSTGRES_URL is set). */
export const analyticsScenario: Scenario = {
  name: 'analytics',
  description: `Analytics over ${rows.toLocaleString('en-US')} usage rows (bench/analytics runAnalyticsBench): load time, every /analytics/* query with raw rows ("before") and with daily totals ("after"), median of ${runs} runs after a warm-up, and the usage recorder's group commit.`,
  needsServices: false,
  async run(context) {
    const postgresUrl = process.env.TEST_POSTGRES_URL;
    const engines: BenchEngine[] = postgresUrl ? ['sqlite', 'postgres'] : ['sqlite'];
    const result = await runAnalyticsBench({
      rows,
      runs,
      engines,
      postgresAdminUrl: postgresUrl,
      outDir: OUT_DIR,
      log: (line) => context.log(`  ${line}`),
    });
    const measurements: Measurement[] = [];
    for (const engine of result.engines) {
      measurements.push({
        case: 'load',
        target: engine.engine,
        metrics: { rows: engine.load.rows, seconds: engine.load.seconds, rows_per_second: engine.load.rowsPerSecond },
      });
      for (const query of engine.queries) {
        measurements.push({
          case: `${query.route} ${query.filter}`,
          target: engine.engine,
          metrics: { raw_ms: query.rawMs, daily_ms: query.dailyMs },
        });
      }
      for (const timing of engine.recorder) {
        measurements.push({
          case: `recorder x${timing.concurrency} flush=${timing.flushIntervalMs}ms`,
          target: engine.engine,
          metrics: {
            records_per_second: timing.recordsPerSecond,
            transactions: timing.transactions,
            p50_ms: timing.p50Ms,
            p99_ms: timing.p99Ms,
          },
        });
      }
    }
    const notes = [
      postgresUrl
        ? 'PostgreSQL from TEST_POSTGRES_URL.'
        : 'SQLite only: set TEST_POSTGRES_URL (a role that may create databases) to add PostgreSQL.',
    ];
    return { measurements, ratios: [], notes };
  },
};
