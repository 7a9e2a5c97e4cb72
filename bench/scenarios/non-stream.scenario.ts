import { BENCH_SETTINGS } from '../bench-settings.js';
import type { HttpLoadJob } from '../load/load-jobs.js';
import type { Measurement } from '../report/bench-results.js';
import { computeRatios } from '../report/compute-ratios.js';
import type { BenchTarget } from '../targets/bench-target.js';
import { chatCompletionRequest } from './chat-body.js';
import { interleave } from './interleave.js';
import { requireServices, type Scenario } from './scenario.js';
import { summarizeHttpRounds } from './summarize-http.js';

const { concurrencies, openLoopRates, openLoopConnections } = BENCH_SETTINGS.nonStream;

/** Non-streamed chat completions against the instant upstream: closed loop at each concurrency, then open loop at each rate. */
export const nonStreamScenario: Scenario = {
  name: 'nonstream',
  description: `Non-streamed chat completions (autocannon, fast upstream answering at once): closed loop at c=${concurrencies.join('/')}, open loop at ${openLoopRates.join('/')} req/s over ${openLoopConnections} connections; throughput, p50/p90/p99 latency, errors.`,
  needsServices: true,
  async run(context) {
    const { targets, worker, settle } = requireServices(context);
    const measurements: Measurement[] = [];
    const job = (target: BenchTarget, connections: number, seconds: number, rate?: number): HttpLoadJob => ({
      kind: 'http',
      method: 'POST',
      ...chatCompletionRequest(target, 'fast', false),
      connections,
      seconds,
      rate,
    });
    const loads = [
      ...concurrencies.map((c) => ({
        name: `closed loop c=${c}`,
        connections: c,
        rate: undefined as number | undefined,
      })),
      ...openLoopRates.map((rate) => ({ name: `open loop ${rate} req/s`, connections: openLoopConnections, rate })),
    ];
    for (const load of loads) {
      context.log(`  ${load.name}`);
      const results = await interleave({
        targets,
        rounds: BENCH_SETTINGS.rounds,
        settle,
        measure: (target) => worker.run(job(target, load.connections, BENCH_SETTINGS.roundSeconds, load.rate)),
        warmUp: (target) => worker.run(job(target, load.connections, BENCH_SETTINGS.warmupSeconds, load.rate)),
      });
      for (const [target, rounds] of results) {
        const summary = summarizeHttpRounds(rounds);
        measurements.push({ case: load.name, target, ...summary });
        context.log(
          `    ${target.padEnd(16)} ${String(summary.metrics.rps).padStart(8)} req/s  p50 ${summary.metrics.p50_ms} ms  p99 ${summary.metrics.p99_ms} ms  errors ${summary.metrics.errors}`,
        );
      }
    }
    return { measurements, ratios: computeRatios(measurements, ['rps', 'p50_ms', 'p90_ms', 'p99_ms']), notes: [] };
  },
};
