import { BENCH_SETTINGS } from '../bench-settings.js';
import { readRssMb } from '../processes/read-rss.js';
import { sampleRss } from '../processes/sample-rss.js';
import type { Measurement } from '../report/bench-results.js';
import { computeRatios } from '../report/compute-ratios.js';
import { round } from '../report/sample-stats.js';
import { chatCompletionRequest } from './chat-body.js';
import { requireServices, type Scenario } from './scenario.js';

const { loadSeconds, connections, settleSeconds, sampleMs } = BENCH_SETTINGS.memory;

/** RSS of each gateway process: idle after start, peak under load, and after the load stopped. */
export const memoryScenario: Scenario = {
  name: 'memory',
  description: `Gateway process memory (VmRSS from /proc): idle right after start-up, peak while ${loadSeconds} s of non-streamed completions run at c=${connections} (sampled every ${sampleMs} ms), and ${settleSeconds} s after that load and every scenario before it ended.`,
  needsServices: true,
  async run(context) {
    const services = requireServices(context);
    const measurements: Measurement[] = [];
    for (const target of services.targets) {
      if (target.pid === undefined) continue;
      await services.settle();
      const idle = services.idleRssMb[target.name] ?? null;
      const before = readRssMb(target.pid) ?? null;
      const sampler = sampleRss(target.pid, sampleMs);
      const load = await services.worker.run({
        kind: 'http',
        method: 'POST',
        ...chatCompletionRequest(target, 'fast', false),
        connections,
        seconds: loadSeconds,
      });
      const peak = sampler.stop();
      await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000));
      const after = readRssMb(target.pid) ?? null;
      const metrics = {
        rss_idle_mb: idle,
        rss_before_mb: before,
        rss_peak_mb: peak,
        rss_after_mb: after,
        after_vs_idle: idle && after ? round(after / idle, 3) : null,
        requests: load.ok,
      };
      measurements.push({ case: 'rss', target: target.name, metrics });
      context.log(
        `  ${target.name.padEnd(16)} idle ${idle} MiB  peak ${peak} MiB  after ${after} MiB (${metrics.after_vs_idle}× idle)`,
      );
    }
    const notes = [
      `The issue's target is "back within 10 % of idle after a 5-minute load"; this run's load is shorter (every scenario before this one, then ${loadSeconds} s), so it is an early reading.`,
    ];
    return { measurements, ratios: computeRatios(measurements, ['rss_idle_mb', 'rss_peak_mb', 'rss_after_mb']), notes };
  },
};
