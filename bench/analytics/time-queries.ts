import { isDeepStrictEqual } from 'node:util';
import {
  createAnalyticsQueryStore,
  createAnalyticsService,
  type AnalyticsFilter,
  type AnalyticsService,
} from '../../src/analytics/index.js';
import type { DatabaseHandle } from '../../src/db/index.js';
import { AGENTS, BENCH_DAYS, benchTime } from './generate-usage.js';

export type ReportName = 'costs' | 'usage' | 'models' | 'agents' | 'risks';

export interface QueryTiming {
  route: string;
  filter: string;
  /** Median ms reading every usage record in the window (the plain indexes only): "before". */
  rawMs: number | null;
  /** Median ms reading whole days from usage_daily and only the edges from usage records: "after". */
  dailyMs: number;
  runs: number;
}

const FILTERS: { name: string; filter: AnalyticsFilter }[] = [
  { name: 'none (all rows)', filter: {} },
  { name: 'agent_name', filter: { agentName: AGENTS[3] } },
  { name: '7-day window, partial days at both ends', filter: { since: benchTime(40.25), until: benchTime(47.75) } },
  {
    name: 'agent_name + 30-day window',
    filter: { agentName: AGENTS[7], since: benchTime(BENCH_DAYS - 30.5), until: benchTime(BENCH_DAYS) },
  },
  { name: 'since only (last 1.5 days)', filter: { since: benchTime(BENCH_DAYS - 1.5) } },
];
const REPORTS: ReportName[] = ['costs', 'usage', 'models', 'agents', 'risks'];

/**
 * Times every route's aggregation with and without the daily totals, and checks that both give the
 * same answer, so a faster number can never come from a wrong one.
 */
export async function timeQueries(
  handle: DatabaseHandle,
  runs: number,
  log: (line: string) => void,
): Promise<QueryTiming[]> {
  const store = createAnalyticsQueryStore(handle.db);
  const daily = createAnalyticsService({ store });
  const raw = createAnalyticsService({ store, dailyTotals: false });
  const timings: QueryTiming[] = [];
  for (const report of REPORTS) {
    for (const { name, filter } of FILTERS) {
      const after = await median(runs, () => callReport(daily, report, filter));
      // Risk counts have no rollup: both strategies run the same query.
      const before = report === 'risks' ? undefined : await median(runs, () => callReport(raw, report, filter));
      if (before && !isDeepStrictEqual(before.result, after.result))
        throw new Error(`${report} with ${name}: daily totals disagree with the records`);
      const timing = {
        route: `/analytics/${report}`,
        filter: name,
        rawMs: before?.ms ?? null,
        dailyMs: after.ms,
        runs,
      };
      log(
        `  ${timing.route.padEnd(18)} ${name.padEnd(42)} raw ${String(timing.rawMs ?? '-').padStart(8)} ms   daily ${String(timing.dailyMs).padStart(7)} ms`,
      );
      timings.push(timing);
    }
  }
  return timings;
}

function callReport(service: AnalyticsService, report: ReportName, filter: AnalyticsFilter): Promise<unknown> {
  return (service[report] as (filter: AnalyticsFilter) => Promise<unknown>)(filter);
}

/** One warm-up call, then the median of `runs` timed calls. */
async function median<T>(runs: number, call: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const result = await call();
  const samples: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    await call();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { ms: Math.round(samples[Math.floor(samples.length / 2)] * 100) / 100, result };
}
