import { fileURLToPath } from 'node:url';
import { BENCH_SETTINGS, UPSTREAM_PROFILES } from '../bench-settings.js';
import { startLoadWorker } from '../load/load-worker-client.js';
import { readRssMb } from '../processes/read-rss.js';
import { sampleRss } from '../processes/sample-rss.js';
import type { Measurement } from '../report/bench-results.js';
import { measureFanout } from './agui-fanout-measure.js';
import { requireServices, type Scenario } from './scenario.js';
import { spawnService } from '../processes/spawn-service.js';

const FLOOR_SERVER = fileURLToPath(new URL('../targets/fanout-floor-server.ts', import.meta.url));

const { subscribers, attachBatch } = BENCH_SETTINGS.fanout;
const slow = UPSTREAM_PROFILES.slow;
/** Load processes the subscribers are spread over (the shared load worker plus more of its kind). */
const LOAD_PROCESSES = Math.max(1, Number(process.env.BENCH_FANOUT_WORKERS ?? 2));

/** One AG-UI run, 1,000 SSE subscribers on it; only our gateway has AG-UI, so there are no ratios. */
export const aguiFanoutScenario: Scenario = {
  name: 'fanout',
  description: `AG-UI fan-out: POST /agui/runs against a slow upstream (${slow.latencyMs} ms, then ${slow.chunks} stamped chunks ${slow.chunkIntervalMs} ms apart), ${subscribers} SSE subscribers attached with GET /agui/ws?run_id= in batches of ${attachBatch}, spread over ${LOAD_PROCESSES} load processes; delivery lag p50/p99 = subscriber receive time minus upstream stamp, over the chunks sent after the last subscriber attached.`,
  needsServices: true,
  async run(context) {
    const services = requireServices(context);
    const extra = Array.from({ length: LOAD_PROCESSES - 1 }, () => startLoadWorker());
    const workers = [services.worker, ...extra];
    const measurements: Measurement[] = [];
    try {
      // The floor: plain node:http writing each chunk to the same subscribers (bench/targets/fanout-floor-server.ts).
      const floor = await spawnService({
        name: 'fanout-floor',
        nodeArgs: ['--import', 'tsx', FLOOR_SERVER],
        readyLine: /^listening on (http:\/\/\S+)$/,
        ipc: true,
      });
      const targets = [
        ['ours', services.ours],
        ['ours+guardrails', services.guarded],
        ['floor (node:http)', { url: floor.ready[1], process: { pid: floor.pid } }],
      ] as const;
      try {
        for (const [target, gateway] of targets) {
          await services.settle();
          const rssBefore = readRssMb(gateway.process.pid) ?? null;
          const rss = sampleRss(gateway.process.pid, BENCH_SETTINGS.memory.sampleMs);
          const { metrics } = await measureFanout({
            baseUrl: gateway.url,
            gatewayPid: gateway.process.pid,
            workers,
            subscribers,
            attachBatch,
          });
          const rssPeak = rss.stop();
          measurements.push({
            case: `${subscribers} subscribers`,
            target,
            metrics: { ...metrics, rss_before_mb: rssBefore, rss_peak_mb: rssPeak },
          });
          context.log(
            `  ${target.padEnd(18)} attached ${metrics.subscribers_attached} in ${metrics.attach_ms} ms  lag p50 ${metrics.lag_p50_ms} / p99 ${metrics.lag_p99_ms} ms over ${metrics.deliveries} deliveries  dropped ${metrics.dropped_streams}  client CPU ${metrics.client_cpu_pct} %, event-loop delay p99 ${metrics.client_eld_p99_ms} ms`,
          );
        }
      } finally {
        await floor.stop();
      }
    } finally {
      await Promise.all(extra.map((worker) => worker.close()));
    }
    const notes = [
      'Neither the upstream nor Portkey has an AG-UI run to attach to (issue 20: p99 ≤ 20 ms). The baseline is the floor: plain node:http writing each chunk, encoded once, to the same subscribers in a loop (bench/targets/fanout-floor-server.ts; no auth, run, bus or upstream hop, its chunks stamped by itself).',
      `The subscribers are raw-socket SSE clients spread over ${LOAD_PROCESSES} load processes (BENCH_FANOUT_WORKERS); client_cpu_pct and client_eld_* show whether the clients themselves kept up.`,
    ];
    return { measurements, ratios: [], notes };
  },
};
