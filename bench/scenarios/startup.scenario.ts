import { BENCH_SETTINGS } from '../bench-settings.js';
import { readRssMb } from '../processes/read-rss.js';
import type { Measurement } from '../report/bench-results.js';
import { computeRatios } from '../report/compute-ratios.js';
import { median } from '../report/sample-stats.js';
import { startGateway } from '../targets/start-gateway.js';
import { startPortkey } from '../targets/start-portkey.js';
import type { Scenario } from './scenario.js';

const { starts } = BENCH_SETTINGS.startup;
/** Start-up never calls an upstream, so a closed port is enough when the shared upstreams are not running. */
const UNUSED_UPSTREAM = { url: 'http://127.0.0.1:9' };

/** Fresh starts of our gateway (new SQLite dir, so migrations run) and of Portkey, alternated. */
export const startupScenario: Scenario = {
  name: 'startup',
  description: `Start-up time, median of ${starts} fresh starts each, alternating: spawn to the "listening on" line (Portkey: its "running" line, printed after a deliberate 1 s spinner) and spawn to the first 200 (our /healthz, Portkey's GET /); idle RSS right after.`,
  needsServices: false,
  async run(context) {
    const samples = { ours: [] as Sample[], portkey: [] as Sample[] };
    const upstreams = context.services?.upstreams ?? {
      fast: UNUSED_UPSTREAM,
      paced: UNUSED_UPSTREAM,
      slow: UNUSED_UPSTREAM,
    };
    for (let start = 0; start < starts; start += 1) {
      const gateway = await startGateway({ runtime: context.runtime, upstreams, guardrails: false });
      samples.ours.push({ ...gateway.process.startup, rssMb: readRssMb(gateway.process.pid) });
      await gateway.stop();
      const portkey = await startPortkey();
      samples.portkey.push({ ...portkey.process.startup, rssMb: readRssMb(portkey.process.pid) });
      await portkey.process.stop();
    }
    const measurements: Measurement[] = Object.entries(samples).map(([target, list]) => ({
      case: 'fresh start',
      target,
      metrics: {
        ready_line_ms: median(list.map((sample) => sample.readyLineMs)),
        first_200_ms: median(list.flatMap((sample) => (sample.firstOkMs === undefined ? [] : [sample.firstOkMs]))),
        rss_after_start_mb: median(list.flatMap((sample) => (sample.rssMb === undefined ? [] : [sample.rssMb]))),
      },
      rounds: list.map((sample) => ({ ready_line_ms: sample.readyLineMs, first_200_ms: sample.firstOkMs ?? null })),
    }));
    for (const { target, metrics } of measurements)
      context.log(
        `  ${target.padEnd(16)} listening line ${metrics.ready_line_ms} ms  first 200 ${metrics.first_200_ms} ms  RSS ${metrics.rss_after_start_mb} MiB`,
      );
    const notes = [
      `Our gateway runs as ${context.runtime.kind === 'dist' ? 'built JavaScript (node dist/cli/main.js serve)' : 'TypeScript through tsx (no build available)'}; its start includes opening SQLite and running migrations on an empty data dir.`,
    ];
    return { measurements, ratios: computeRatios(measurements, ['first_200_ms']), notes };
  },
};

interface Sample {
  readyLineMs: number;
  firstOkMs?: number;
  rssMb?: number;
}
