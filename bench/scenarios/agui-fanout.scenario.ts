import { BENCH_API_KEY, BENCH_PROMPT, BENCH_SETTINGS, UPSTREAM_PROFILES } from '../bench-settings.js';
import { readRssMb } from '../processes/read-rss.js';
import { sampleRss } from '../processes/sample-rss.js';
import type { Measurement } from '../report/bench-results.js';
import { round, summarize } from '../report/sample-stats.js';
import { requireServices, type Scenario } from './scenario.js';

const { subscribers, attachBatch } = BENCH_SETTINGS.fanout;
const slow = UPSTREAM_PROFILES.slow;

/** One AG-UI run, 1,000 SSE subscribers on it; only our gateway has AG-UI, so there are no ratios. */
export const aguiFanoutScenario: Scenario = {
  name: 'fanout',
  description: `AG-UI fan-out: POST /agui/runs against a slow upstream (${slow.latencyMs} ms, then ${slow.chunks} stamped chunks ${slow.chunkIntervalMs} ms apart), ${subscribers} SSE subscribers attached with GET /agui/ws?run_id= in batches of ${attachBatch}; delivery lag p50/p99 = subscriber receive time minus upstream stamp, over the chunks sent after the last subscriber attached.`,
  needsServices: true,
  async run(context) {
    const services = requireServices(context);
    const measurements: Measurement[] = [];
    for (const [target, gateway] of [
      ['ours', services.ours],
      ['ours+guardrails', services.guarded],
    ] as const) {
      await services.settle();
      const rssBefore = readRssMb(gateway.process.pid) ?? null;
      const rss = sampleRss(gateway.process.pid, BENCH_SETTINGS.memory.sampleMs);
      const result = await services.worker.run({
        kind: 'fanout',
        baseUrl: gateway.url,
        apiKey: BENCH_API_KEY,
        agent: 'bench-slow',
        message: BENCH_PROMPT,
        subscribers,
        attachBatch,
        timeoutMs: 60_000,
      });
      const rssPeak = rss.stop();
      const lag = summarize(result.lagMs);
      const owner = summarize(result.ownerLagMs);
      const metrics = {
        subscribers_attached: result.attached,
        attach_failures: result.failed,
        attach_ms: round(result.attachMs, 1),
        deliveries: lag.count,
        lag_p50_ms: lag.p50,
        lag_p90_ms: lag.p90,
        lag_p99_ms: lag.p99,
        lag_max_ms: lag.max,
        owner_lag_p50_ms: owner.p50,
        owner_lag_p99_ms: owner.p99,
        chunks_min: result.chunksPerSubscriber.min,
        chunks_max: result.chunksPerSubscriber.max,
        dropped_streams: result.dropped,
        rss_before_mb: rssBefore,
        rss_peak_mb: rssPeak,
      };
      measurements.push({ case: `${subscribers} subscribers`, target, metrics });
      context.log(
        `  ${target.padEnd(16)} attached ${result.attached} in ${metrics.attach_ms} ms  lag p50 ${lag.p50} / p99 ${lag.p99} ms over ${lag.count} deliveries  dropped ${result.dropped}`,
      );
    }
    const notes = [
      'Neither the upstream nor Portkey has an AG-UI run to attach to: this scenario has no baseline, only the target (p99 ≤ 50 ms).',
    ];
    return { measurements, ratios: [], notes };
  },
};
