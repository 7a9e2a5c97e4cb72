// Telemetry off vs on: two gateways (same config but `telemetry:`), each its own process, loaded in turn
// with non-streamed chat completions at c=32 against a fake upstream that answers at once. Reports requests
// per second and the gateway's CPU time per request (from /proc), so the added microseconds show.
// As a scenario: `runTelemetryBench()`; alone: `npx tsx bench/telemetry.ts` (BENCH_ROUND_SECONDS, default 8;
// BENCH_ROUNDS, default 2; BENCH_VARIANTS=on-json,on-unsampled,off-als adds gateways).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { startDiscardingCollector } from './targets/discarding-collector.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadChatCompletions } from './load/chat-load.js';
import { cpuMicros, singleAgentGatewayYaml, startListening, stopChildren } from './processes/start-listening.js';

const CONNECTIONS = 32;

/**
 * A preload for the `off-als` variant: an AsyncLocalStorage made active, as the OpenTelemetry context
 * manager makes it, so Node runs its promise hooks for every promise (written out: the gateway runs plain node).
 */
export function alsPreload(): string {
  const file = join(tmpdir(), 'agent-gateway-bench-als-preload.mjs');
  writeFileSync(
    file,
    "import { AsyncLocalStorage } from 'node:async_hooks';\nnew AsyncLocalStorage().enterWith({});\n",
  );
  return file;
}

export interface TelemetryBenchOptions {
  /** Seconds of load per gateway per round (default 8). */
  roundSeconds?: number;
  /** Rounds, the order of the two gateways alternating (default 2). */
  rounds?: number;
  log?: (line: string) => void;
  /** More gateways to load in the same rounds (BENCH_VARIANTS=on-json,on-unsampled,off-als). */
  extraVariants?: Variant[];
}

export interface TelemetryBenchResult {
  /** Requests per second at c=32, telemetry off and on (exporting OTLP to a local collector). */
  rps_off: number;
  rps_on: number;
  /** Gateway CPU µs per request that telemetry adds (on minus off). */
  cpu_us_per_request: number;
  /** Gateway CPU µs per request, each gateway on its own. */
  cpu_us_per_request_off: number;
  cpu_us_per_request_on: number;
  /** OTLP export requests the collector received (0 would mean nothing was exported). */
  otlp_exports: number;
  connections: number;
  /** Every gateway loaded: off, on and the extra variants. */
  variants: {
    name: string;
    rps: number;
    cpu_us_per_request: number;
    /** Median over rounds of this gateway's CPU µs per request minus off's in the same round. */
    added_cpu_us_per_request: number;
    rounds_cpu_us_per_request: number[];
  }[];
}

async function load(url: string, seconds: number): Promise<number> {
  return (await loadChatCompletions(url, seconds, CONNECTIONS)).requests.total;
}

function yaml(upstream: string, dataDir: string, telemetry: string): string {
  return singleAgentGatewayYaml(upstream, dataDir, telemetry);
}

/** The telemetry scenario: two built gateways (`dist/`), loaded in turn; children are stopped before it returns. */
export async function runTelemetryBench(options: TelemetryBenchOptions = {}): Promise<TelemetryBenchResult> {
  const children: ChildProcess[] = [];
  try {
    return await measure(children, options);
  } finally {
    // SIGINT: a graceful stop, so a --cpu-prof profile is written.
    await stopChildren(children);
  }
}

/**
 * A gateway to load: `off` and `on` (the defaults: OTLP protobuf, every span sampled, metrics exported once a minute)
 * always; BENCH_VARIANTS adds `on-json` (OTLP JSON), `on-unsampled` (the gateway's own
 * telemetry work without the SDK recording spans: `sampler: always_off`) and `off-als` (telemetry off,
 * an AsyncLocalStorage made active by a preload: what Node's per-promise hooks cost alone).
 */
type Variant = 'off' | 'on' | 'on-json' | 'on-unsampled' | 'off-als';

function variantArgs(variant: Variant, collectorUrl: string): { telemetry: string; node: string[] } {
  // The configured defaults otherwise: the metrics export runs once a minute (a per-time cost, ~20 ms per
  // export, which a few-second round would charge to its requests several times over).
  const on = (settings = '') => `telemetry: { enabled: true, endpoint: "${collectorUrl}"${settings} }`;
  switch (variant) {
    case 'off':
      return { telemetry: '', node: [] };
    case 'on':
      return { telemetry: on(), node: [] };
    case 'on-json':
      return { telemetry: on(', protocol: http/json'), node: [] };
    case 'on-unsampled':
      return { telemetry: on(', sampler: always_off'), node: [] };
    case 'off-als':
      return { telemetry: '', node: ['--import', alsPreload()] };
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

interface Measured {
  name: Variant;
  url: string;
  pid: number;
  requests: number;
  seconds: number;
  cpu: number;
  /** CPU µs per request of each round, for the paired (same round) differences. */
  perRound: number[];
}

async function measure(children: ChildProcess[], options: TelemetryBenchOptions): Promise<TelemetryBenchResult> {
  const roundSeconds = options.roundSeconds ?? 8;
  const rounds = options.rounds ?? 2;
  // The collector accepts every export (its CPU is this process's, not the gateway's).
  const collector = await startDiscardingCollector();
  const collectorUrl = collector.url;
  const upstream = await startListening(children, ['bench/fake-upstream-server.ts', '--port', '0']);
  const temp = mkdtempSync(join(tmpdir(), 'otel-bench-'));
  const variants: Variant[] = ['off', 'on', ...(options.extraVariants ?? [])];
  const gateways: Measured[] = [];
  for (const name of variants) {
    const { telemetry, node } = variantArgs(name, collectorUrl);
    const file = join(temp, `${name}.yaml`);
    writeFileSync(file, yaml(upstream.url, join(temp, name), telemetry));
    // The built gateway, as users start it; BENCH_CPU_PROF_DIR adds a CPU profile of each (written at exit).
    const profile = process.env.BENCH_CPU_PROF_DIR
      ? [
          '--cpu-prof',
          // 250 µs, not 1 ms: a few tens of µs per request show as hundreds of samples in a 10 s round.
          '--cpu-prof-interval=250',
          `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`,
          `--cpu-prof-name=telemetry-${name}.cpuprofile`,
        ]
      : [];
    const gateway = await startListening(children, [
      ...node,
      ...profile,
      'dist/cli/main.js',
      'serve',
      '--config',
      file,
    ]);
    gateways.push({ name, url: gateway.url, pid: gateway.child.pid!, requests: 0, seconds: 0, cpu: 0, perRound: [] });
  }
  for (const gateway of gateways) await load(gateway.url, 2);
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? gateways : [...gateways].reverse();
    for (const gateway of order) {
      const cpuBefore = cpuMicros(gateway.pid);
      const started = performance.now();
      options.log?.(`telemetry ${gateway.name}: round ${round + 1} of ${rounds}`);
      const requests = await load(gateway.url, roundSeconds);
      const cpu = cpuMicros(gateway.pid) - cpuBefore;
      gateway.requests += requests;
      gateway.seconds += (performance.now() - started) / 1000;
      gateway.cpu += cpu;
      gateway.perRound.push(cpu / requests);
    }
  }
  collector.close();
  rmSync(temp, { recursive: true, force: true });
  const [off, on] = gateways;
  const cpuOff = off.cpu / off.requests;
  const cpuOn = on.cpu / on.requests;
  // The median of the rounds' differences: a neighbour's burst in one round moves one pair, not the result.
  const added = (gateway: Measured) =>
    Math.round(median(gateway.perRound.map((cpu, round) => cpu - off.perRound[round])));
  return {
    rps_off: Math.round(off.requests / off.seconds),
    rps_on: Math.round(on.requests / on.seconds),
    cpu_us_per_request: added(on),
    cpu_us_per_request_off: Math.round(cpuOff),
    cpu_us_per_request_on: Math.round(cpuOn),
    otlp_exports: collector.exports(),
    connections: CONNECTIONS,
    variants: gateways.map((gateway) => ({
      name: gateway.name,
      rps: Math.round(gateway.requests / gateway.seconds),
      cpu_us_per_request: Math.round(gateway.cpu / gateway.requests),
      added_cpu_us_per_request: added(gateway),
      rounds_cpu_us_per_request: gateway.perRound.map(Math.round),
    })),
  };
}

// Run directly: print the table.
if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runTelemetryBench({
    roundSeconds: Number(process.env.BENCH_ROUND_SECONDS ?? 8),
    rounds: Number(process.env.BENCH_ROUNDS ?? 2),
    extraVariants: (process.env.BENCH_VARIANTS ?? '').split(',').filter(Boolean) as Variant[],
    log: (line) => process.stderr.write(`${line}\n`),
  });
  console.log(
    `| gateway | requests/s at c=${result.connections} | CPU µs per request | added (median of rounds) | rounds |`,
  );
  console.log('|---|---:|---:|---:|---|');
  for (const variant of result.variants)
    console.log(
      `| ${variant.name} | ${variant.rps} | ${variant.cpu_us_per_request} | ${variant.added_cpu_us_per_request} | ${variant.rounds_cpu_us_per_request.join(', ')} |`,
    );
  console.log(
    `\nadded CPU per request (on): ${result.cpu_us_per_request} µs; OTLP exports received: ${result.otlp_exports}`,
  );
}
