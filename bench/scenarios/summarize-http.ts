import type { HttpLoadResult } from '../load/load-jobs.js';
import { round, summarize } from '../report/sample-stats.js';

/** Merges a target's rounds: throughput over the summed time, percentiles over every sample of every round. */
export function summarizeHttpRounds(results: readonly HttpLoadResult[]): {
  metrics: Record<string, number | null>;
  rounds: Record<string, number | null>[];
} {
  const seconds = results.reduce((sum, result) => sum + result.seconds, 0);
  const ok = results.reduce((sum, result) => sum + result.ok, 0);
  const latency = summarize(results.flatMap((result) => result.latenciesMs));
  return {
    metrics: {
      rps: seconds > 0 ? round(ok / seconds, 1) : null,
      p50_ms: latency.p50,
      p90_ms: latency.p90,
      p99_ms: latency.p99,
      mean_ms: latency.mean,
      requests: ok,
      errors: results.reduce((sum, result) => sum + result.non2xx + result.errors, 0),
    },
    rounds: results.map((result) => {
      const stats = summarize(result.latenciesMs);
      return {
        rps: result.seconds > 0 ? round(result.ok / result.seconds, 1) : null,
        p50_ms: stats.p50,
        p99_ms: stats.p99,
        errors: result.non2xx + result.errors,
      };
    }),
  };
}
