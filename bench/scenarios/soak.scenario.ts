import { BENCH_SETTINGS } from '../bench-settings.js';
import { readRssMb } from '../processes/read-rss.js';
import { sampleRss } from '../processes/sample-rss.js';
import type { Measurement } from '../report/bench-results.js';
import { round } from '../report/sample-stats.js';
import { createGatewayTarget } from '../targets/bench-target.js';
import { startGateway } from '../targets/start-gateway.js';
import { chatCompletionRequest } from './chat-body.js';
import { requireServices, type Scenario } from './scenario.js';

const { seconds, connections, settleSeconds, sampleMs } = BENCH_SETTINGS.soak;

/**
 * The memory target, RSS back within 10 % of idle after a 5-minute load (`npm run bench -- soak`;
 * 60 s in the full run), on a fresh gateway that only this load touches.
 */
export const soakScenario: Scenario = {
  name: 'soak',
  description: `RSS of a fresh gateway (VmRSS from /proc): idle after start-up and a 1 s warm-up, peak during ${seconds} s of non-streamed completions at c=${connections} (sampled every ${sampleMs} ms), then ${settleSeconds} s after the load stopped.`,
  needsServices: true,
  async run(context) {
    const { upstreams, worker } = requireServices(context);
    const gateway = await startGateway({ runtime: context.runtime, upstreams, guardrails: false });
    try {
      const pid = gateway.process.pid;
      const target = createGatewayTarget('ours', gateway.url, pid);
      const load = {
        kind: 'http' as const,
        method: 'POST' as const,
        ...chatCompletionRequest(target, 'fast', false),
        connections,
      };
      await worker.run({ ...load, seconds: BENCH_SETTINGS.warmupSeconds });
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const idle = readRssMb(pid) ?? null;
      const sampler = sampleRss(pid, sampleMs);
      const result = await worker.run({ ...load, seconds });
      const peak = sampler.stop();
      const afterLoad = readRssMb(pid) ?? null;
      await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000));
      const after = readRssMb(pid) ?? null;
      const metrics = {
        rss_idle_mb: idle,
        rss_peak_mb: peak,
        rss_at_end_of_load_mb: afterLoad,
        rss_after_mb: after,
        after_vs_idle: idle && after ? round(after / idle, 3) : null,
        requests: result.ok,
        errors: result.errors,
        rps: round(result.ok / seconds, 1),
      };
      context.log(
        `  ours  idle ${idle} MiB  peak ${peak} MiB  end of load ${afterLoad} MiB  ${settleSeconds} s later ${after} MiB (${metrics.after_vs_idle}× idle), ${result.ok} requests`,
      );
      const measurements: Measurement[] = [{ case: `${seconds} s at c=${connections}`, target: 'ours', metrics }];
      return {
        measurements,
        ratios: [],
        notes: [
          `Target: rss_after_mb within 10 % of rss_idle_mb (after_vs_idle ≤ 1.10). BENCH_SOAK_SECONDS sets the load (${seconds} s in this run).`,
        ],
      };
    } finally {
      await gateway.stop();
    }
  },
};
