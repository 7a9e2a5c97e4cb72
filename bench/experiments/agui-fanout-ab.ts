// A/B of the fan-out between two gateway builds, interleaved on one machine:
//   npx tsx bench/experiments/agui-fanout-ab.ts --cli /work/main/dist/cli/main.js --cli dist/cli/main.js --rounds 3
// Each round measures every (cli, load processes) pair, in an order that alternates between rounds, so
// drift of a shared machine falls on both alike. Prints one line per measurement and the medians.
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { BENCH_SETTINGS } from '../bench-settings.js';
import { startLoadWorker } from '../load/load-worker-client.js';
import { stopAllChildren } from '../processes/child-registry.js';
import { ensureBuild } from '../processes/ensure-build.js';
import { waitForIdle } from '../processes/wait-for-idle.js';
import { median } from '../report/sample-stats.js';
import { startGateway } from '../targets/start-gateway.js';
import { startUpstreams } from '../targets/start-upstreams.js';
import { measureFanout } from '../scenarios/agui-fanout-measure.js';

const { values } = parseArgs({
  options: {
    cli: { type: 'string', multiple: true },
    workers: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '3' },
    subscribers: { type: 'string', default: String(BENCH_SETTINGS.fanout.subscribers) },
    // Writes a V8 CPU profile of each gateway here when it stops (summarise: bench/profile/summarize-cpu-profile.ts).
    profile: { type: 'string' },
  },
});
const clis = values.cli ?? ['dist/cli/main.js'];
const workerCounts = values.workers.split(',').map(Number);
const rounds = Number(values.rounds);
const subscribers = Number(values.subscribers);
const KEYS = [
  'lag_p50_ms',
  'lag_p99_ms',
  'lag_max_ms',
  'gateway_cpu_us_per_delivery',
  'client_cpu_pct',
  'client_eld_p99_ms',
];

try {
  const runtime = ensureBuild({ skip: true, log: console.log });
  const upstreams = await startUpstreams();
  const gateways = [];
  for (const cli of clis)
    gateways.push({
      cli,
      gateway: await startGateway({
        runtime,
        upstreams,
        cli,
        guardrails: false,
        name: cli,
        cpuProfileDir: values.profile,
      }),
    });
  const pool = Array.from({ length: Math.max(...workerCounts) }, () => startLoadWorker());
  const pids = [...gateways.map((g) => g.gateway.process.pid), ...pool.map((w) => w.pid)];
  const cases = gateways.flatMap((g) => workerCounts.map((count) => ({ ...g, count })));
  const seen = new Map<string, Record<string, number | null>[]>();
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? cases : [...cases].reverse();
    for (const { cli, gateway, count } of order) {
      await waitForIdle(pids);
      const load = loadavg()[0].toFixed(2);
      const { metrics } = await measureFanout({
        baseUrl: gateway.url,
        gatewayPid: gateway.process.pid,
        workers: pool.slice(0, count),
        subscribers,
        attachBatch: BENCH_SETTINGS.fanout.attachBatch,
      });
      const name = `${cli} ×${count}`;
      seen.set(name, [...(seen.get(name) ?? []), metrics]);
      console.log(
        `round ${round + 1} load ${load} ${name}: ${KEYS.map((key) => `${key}=${metrics[key]}`).join(' ')} deliveries=${metrics.deliveries} dropped=${metrics.dropped_streams}`,
      );
    }
  }
  for (const [name, list] of seen)
    console.log(
      `median ${name}: ${KEYS.map((key) => `${key}=${median(list.map((m) => m[key]).filter((v): v is number => v !== null))}`).join(' ')}`,
    );
} finally {
  // SIGTERM: a profiled gateway writes its profile as it exits.
  await stopAllChildren();
}
process.exit(0);
