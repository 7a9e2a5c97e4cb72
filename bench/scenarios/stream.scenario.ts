import { BENCH_SETTINGS, UPSTREAM_PROFILES } from '../bench-settings.js';
import type { StreamLoadJob, StreamLoadResult } from '../load/load-jobs.js';
import type { Measurement } from '../report/bench-results.js';
import { computeRatios } from '../report/compute-ratios.js';
import { round, summarize } from '../report/sample-stats.js';
import type { BenchTarget } from '../targets/bench-target.js';
import { chatCompletionRequest } from './chat-body.js';
import { interleave } from './interleave.js';
import { requireServices, type Scenario } from './scenario.js';

const paced = UPSTREAM_PROFILES.paced;

/** Streamed completions against the paced upstream, timed chunk by chunk by our own client. */
export const streamScenario: Scenario = {
  name: 'stream',
  description: `Streamed chat completions against a paced upstream (${paced.latencyMs} ms to first byte, ${paced.chunks} chunks ${paced.chunkIntervalMs} ms apart, each stamped with its send time) at c=${BENCH_SETTINGS.stream.concurrencies.join('/')}: time to first token, gap between chunks, and delivery lag (client receive time minus upstream stamp), by a client that timestamps every chunk.`,
  needsServices: true,
  async run(context) {
    const { targets, worker, settle } = requireServices(context);
    const measurements: Measurement[] = [];
    const job = (target: BenchTarget, concurrency: number, seconds: number): StreamLoadJob => ({
      kind: 'stream',
      ...chatCompletionRequest(target, 'paced', true),
      concurrency,
      seconds,
    });
    for (const concurrency of BENCH_SETTINGS.stream.concurrencies) {
      const name = `stream c=${concurrency}`;
      context.log(`  ${name}`);
      const results = await interleave({
        targets,
        rounds: BENCH_SETTINGS.rounds,
        settle,
        measure: (target) => worker.run(job(target, concurrency, BENCH_SETTINGS.roundSeconds)),
        warmUp: (target) => worker.run(job(target, concurrency, BENCH_SETTINGS.warmupSeconds)),
      });
      for (const [target, rounds] of results) {
        const metrics = summarizeStream(rounds);
        measurements.push({ case: name, target, metrics, rounds: rounds.map((result) => summarizeStream([result])) });
        context.log(
          `    ${target.padEnd(16)} ttft p50 ${metrics.ttft_p50_ms} ms  gap p50 ${metrics.gap_p50_ms} / p99 ${metrics.gap_p99_ms} ms  lag p50 ${metrics.lag_p50_ms} / p99 ${metrics.lag_p99_ms} ms  errors ${metrics.errors}`,
        );
      }
    }
    const notes = [
      'TTFT includes the upstream\'s own 20 ms to first byte; the "added" TTFT is the difference to direct.',
      "Lag compares the client's clock with the upstream's (one machine, performance.timeOrigin + now()), so it is comparable across targets.",
    ];
    return {
      measurements,
      ratios: computeRatios(measurements, [
        'ttft_p50_ms',
        'ttft_p99_ms',
        'gap_p50_ms',
        'gap_p99_ms',
        'lag_p50_ms',
        'lag_p99_ms',
      ]),
      notes,
    };
  },
};

function summarizeStream(results: readonly StreamLoadResult[]): Record<string, number | null> {
  const ttft = summarize(results.flatMap((result) => result.ttftMs));
  const gap = summarize(results.flatMap((result) => result.gapMs));
  const lag = summarize(results.flatMap((result) => result.lagMs));
  const requests = results.reduce((sum, result) => sum + result.requests, 0);
  const chunks = results.reduce((sum, result) => sum + result.chunks, 0);
  return {
    requests,
    errors: results.reduce((sum, result) => sum + result.errors, 0),
    chunks_per_request: requests > 0 ? round(chunks / requests, 1) : null,
    ttft_p50_ms: ttft.p50,
    ttft_p99_ms: ttft.p99,
    gap_p50_ms: gap.p50,
    gap_p99_ms: gap.p99,
    lag_p50_ms: lag.p50,
    lag_p99_ms: lag.p99,
  };
}
