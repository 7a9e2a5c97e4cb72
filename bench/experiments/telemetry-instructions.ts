// Telemetry off vs on in instructions: each built gateway runs under valgrind's callgrind, which counts the
// instructions the process executes (all threads, user space) whatever else the machine does. Per run: start
// uninstrumented, warm up (BENCH_WARMUP non-streamed chat completions at c=32), switch instrumentation on
// (`callgrind_control -i on`), send BENCH_REQUESTS more at c=32, dump the counts, stop. NODE_FLAGS below say
// what keeps two runs alike. The difference is converted to µs with the off gateway's native CPU time per
// instruction (measured here too, BENCH_NATIVE_ROUNDS of BENCH_NATIVE_REQUESTS; 0 rounds skips it).
// `npx tsx bench/experiments/telemetry-instructions.ts` (BENCH_RUNS, default 2; BENCH_WARMUP, 2000; BENCH_REWARM, 2000; BENCH_REQUESTS, 1000;
// BENCH_VARIANTS, default `off,on`; also `on-json`, `on-unsampled`, `on-batch<N>`; BENCH_DUMP_DIR keeps the callgrind files).
// Needs `valgrind` and a built gateway (`npm run build`). About 30 min on a busy 2-core machine.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { startDiscardingCollector } from '../targets/discarding-collector.js';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { BENCH_API_KEY } from '../bench-settings.js';
import { singleAgentGatewayYaml, startListening } from '../processes/start-listening.js';
import { waitForIdle } from '../processes/wait-for-idle.js';

const CONNECTIONS = 32;
const RUNS = Number(process.env.BENCH_RUNS ?? 2);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1_000);
/** Requests sent after the pre-count collection, uncounted (see countRun). */
const REWARM = Number(process.env.BENCH_REWARM ?? 2_000);
/** Native CPU per request of the off gateway (for the µs conversion): rounds of this many requests. */
const NATIVE_REQUESTS = Number(process.env.BENCH_NATIVE_REQUESTS ?? 5_000);
const NATIVE_ROUNDS = Number(process.env.BENCH_NATIVE_ROUNDS ?? 5);

/**
 * `on-batch<N>`: on, with OTEL_BSP_MAX_EXPORT_BATCH_SIZE=N (spans exported sooner, so fewer outlive young collections).
 * `on-unsampled`: on with `sampler: always_off`: the gateway's own telemetry work (hooks, ids, trace context, log
 * bindings, traceparent upstream) without the SDK recording and exporting spans, so on minus on-unsampled is the SDK's share.
 */
type Variant = 'off' | 'on' | 'on-json' | 'on-unsampled' | `on-batch${number}`;
const VARIANTS = (process.env.BENCH_VARIANTS ?? 'off,on').split(',').filter(Boolean) as Variant[];

// What makes two runs count the same (within ~1 %) rather than 6.8–8.1 M per request:
// - V8's garbage collection and optimising compilation on the main thread, in an order fixed by what the
//   program does rather than by how valgrind happens to interleave helper threads;
// - a fixed young generation (16 MB semi-spaces, what V8 grows to under load) and a fixed old-generation
//   growing factor, instead of sizes derived from measured GC and mutator speeds (time, which valgrind bends);
//   no memory reducer (a timer);
// - a full collection after the warm-up (then BENCH_REWARM requests to recompile the code it discarded) and
//   right before the dump (SIGUSR2, `gcPreload`): each count starts from a recently compacted heap and pays
//   for the garbage its requests made, not for the warm-up's.
const NODE_FLAGS = [
  '--single-threaded',
  '--min-semi-space-size=16',
  '--max-semi-space-size=16',
  '--heap-growing-percent=50',
  '--no-memory-reducer',
  '--expose-gc',
];

/** A preload: SIGUSR2 runs a full collection and prints a line when it is done (written out: the gateway runs plain node). */
function gcPreload(directory: string): string {
  const file = join(directory, 'gc-on-sigusr2.mjs');
  writeFileSync(
    file,
    "process.on('SIGUSR2', () => { globalThis.gc(); process.stdout.write('bench: gc done\\n'); });\n",
  );
  return file;
}
// JIT code is written into anonymous memory: valgrind must notice code that changes there.
const VALGRIND_FLAGS = ['--tool=callgrind', '--instr-atstart=no', '--smc-check=all-non-file'];

function yaml(upstream: string, dataDir: string, variant: Variant, collectorUrl: string): string {
  // The metrics export runs once a minute (per time, not per request: at native speed a minute is ~40,000
  // requests); under valgrind a minute is a few hundred, so it is held off here and the spans alone are counted.
  const telemetry =
    variant === 'off'
      ? ''
      : `telemetry: { enabled: true, endpoint: "${collectorUrl}", export_interval_ms: 3600000${
          variant === 'on-json' ? ', protocol: http/json' : variant === 'on-unsampled' ? ', sampler: always_off' : ''
        } }`;
  return singleAgentGatewayYaml(upstream, dataDir, telemetry);
}

// The batch processor exports when 512 spans are queued or 5 s after the first: natively at c=32 the 512 come
// first (~0.2 s); under valgrind's slowdown the timer would, with smaller batches. Size-triggered here, as natively.
const GATEWAY_ENV = { OTEL_BSP_SCHEDULE_DELAY: '3600000' };

/** `amount` non-streamed chat completions at c=32; throws unless every one answered 200. */
function send(url: string, amount: number): Promise<void> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${url}/v1/chat/completions`,
        method: 'POST',
        connections: CONNECTIONS,
        amount,
        timeout: 600,
        headers: { authorization: `Bearer ${BENCH_API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'bench-fast', messages: [{ role: 'user', content: 'Hello' }] }),
      },
      (error, result) => {
        if (error) return reject(error instanceof Error ? error : new Error(String(error)));
        if (result['2xx'] !== amount)
          return reject(new Error(`${result['2xx']} of ${amount} answered 2xx (errors ${result.errors})`));
        resolve();
      },
    );
  });
}

function callgrindControl(args: string[]): void {
  const result = spawnSync('callgrind_control', args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`callgrind_control ${args.join(' ')}: ${result.stdout}${result.stderr}`);
}

interface Gateway {
  child: ChildProcess;
  url: string;
  /** Sends SIGUSR2 (a full collection, `gcPreload`) and resolves once the gateway printed that it is done. */
  collectGarbage(): Promise<void>;
}

/** Starts `node <flags> dist/cli/main.js serve` under callgrind, uninstrumented; resolves once it listens. */
function startUnderCallgrind(
  children: ChildProcess[],
  config: string,
  outFile: string,
  preload: string,
  env: NodeJS.ProcessEnv,
): Promise<Gateway> {
  const child = spawn(
    'valgrind',
    [
      ...VALGRIND_FLAGS,
      `--callgrind-out-file=${outFile}`,
      process.execPath,
      ...NODE_FLAGS,
      '--import',
      preload,
      'dist/cli/main.js',
      'serve',
      '--config',
      config,
    ],
    { env: { ...process.env, ...GATEWAY_ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let gcDone: (() => void) | undefined;
  const collectGarbage = () =>
    new Promise<void>((resolve) => {
      gcDone = resolve;
      child.kill('SIGUSR2');
    });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve({ child, url: match[1], collectGarbage });
      if (out.includes('bench: gc done')) {
        out = '';
        gcDone?.();
        gcDone = undefined;
      }
      if (out.length > 100_000) out = out.slice(-1_000);
    });
    child.stderr.on('data', (chunk: Buffer) => (err = (err + chunk.toString()).slice(-4_000)));
    child.once('exit', (code) => reject(new Error(`valgrind exited with ${code}: ${err}`)));
  });
}

/** The `summary:` line of each file callgrind dumped for `prefix` (one per dump; threads summed). */
function dumpedInstructions(directory: string, prefix: string): number {
  let total = 0;
  let files = 0;
  for (const name of readdirSync(directory)) {
    // <prefix>.<pid>.out.1 is the first dump; <prefix>.<pid>.out is the final one at exit (nothing counted then).
    if (!name.startsWith(`${prefix}.`) || !/\.out\.\d+(-\d+)?$/.test(name)) continue;
    const match = /^summary:\s*(\d+)/m.exec(readFileSync(join(directory, name), 'utf8'));
    if (match) {
      total += Number(match[1]);
      files += 1;
    }
  }
  if (files === 0) throw new Error(`no callgrind dump for ${prefix} in ${directory}`);
  // BENCH_DUMP_DIR keeps the dumps, for callgrind_annotate.
  const keep = process.env.BENCH_DUMP_DIR;
  if (keep) mkdirSync(keep, { recursive: true });
  if (keep)
    for (const name of readdirSync(directory))
      if (name.startsWith(`${prefix}.`)) copyFileSync(join(directory, name), join(keep, name));
  return total;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 20_000).unref();
  });
}

interface Counted {
  variant: Variant;
  run: number;
  instructionsPerRequest: number;
  minutes: number;
}

/** One gateway under callgrind: warm-up, then REQUESTS counted. */
async function countRun(
  temp: string,
  upstreamUrl: string,
  collectorUrl: string,
  variant: Variant,
  run: number,
  preload: string,
  log: (line: string) => void,
): Promise<Counted> {
  const started = performance.now();
  const name = `${variant}-${run}`;
  const config = join(temp, `${name}.yaml`);
  writeFileSync(config, yaml(upstreamUrl, join(temp, name), variant, collectorUrl));
  const children: ChildProcess[] = [];
  try {
    const batch = /^on-batch(\d+)$/.exec(variant)?.[1];
    const env = batch ? { OTEL_BSP_MAX_EXPORT_BATCH_SIZE: batch } : {};
    const gateway = await startUnderCallgrind(children, config, join(temp, `${name}.%p.out`), preload, env);
    const { child, url } = gateway;
    log(`${name}: warming up (${WARMUP} requests)`);
    await send(url, WARMUP);
    await waitForIdle([child.pid!], 30_000);
    await gateway.collectGarbage();
    // The forced collection also throws away V8's compiled code: counted straight after it, the window re-ran
    // the whole tier-up (about 1.5 M instructions per request of TurboFan and cold code). A second warm-up
    // compiles it again before counting; its garbage is young and mostly gone by then.
    if (REWARM > 0) {
      await send(url, REWARM);
      await waitForIdle([child.pid!], 30_000);
    }
    // valgrind's pid is node's: it runs the program in its own process.
    const pid = String(child.pid);
    callgrindControl(['-i', 'on', pid]);
    log(`${name}: counting ${REQUESTS} requests`);
    await send(url, REQUESTS);
    // A run's last writes can follow its answer: wait for them, then collect what the requests left.
    await waitForIdle([child.pid!], 30_000);
    await gateway.collectGarbage();
    callgrindControl(['-d', pid]);
    callgrindControl(['-i', 'off', pid]);
    const instructions = dumpedInstructions(temp, name);
    return {
      variant,
      run,
      instructionsPerRequest: instructions / REQUESTS,
      minutes: (performance.now() - started) / 60_000,
    };
  } finally {
    await Promise.all(children.map(stop));
  }
}

/** The off gateway natively (same flags): CPU µs per request, user and total, median of rounds. */
async function nativeCpu(
  temp: string,
  upstreamUrl: string,
  collectorUrl: string,
): Promise<{ user: number; total: number; rounds: number[] }> {
  const config = join(temp, 'native-off.yaml');
  writeFileSync(config, yaml(upstreamUrl, join(temp, 'native-off'), 'off', collectorUrl));
  const children: ChildProcess[] = [];
  try {
    const { child, url } = await startListening(children, [
      ...NODE_FLAGS,
      'dist/cli/main.js',
      'serve',
      '--config',
      config,
    ]);
    await send(url, WARMUP);
    const users: number[] = [];
    const totals: number[] = [];
    for (let round = 0; round < NATIVE_ROUNDS; round += 1) {
      await waitForIdle([child.pid!]);
      const before = cpuTimes(child.pid!);
      await send(url, NATIVE_REQUESTS);
      await waitForIdle([child.pid!]);
      const after = cpuTimes(child.pid!);
      users.push((after.user - before.user) / NATIVE_REQUESTS);
      totals.push((after.user + after.system - before.user - before.system) / NATIVE_REQUESTS);
    }
    return { user: median(users), total: median(totals), rounds: totals };
  } finally {
    await Promise.all(children.map(stop));
  }
}

/** utime and stime of a process in µs (clock ticks of 1/100 s). */
function cpuTimes(pid: number): { user: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(fields[11]) * 10_000, system: Number(fields[12]) * 10_000 };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export interface TelemetryInstructionsResult {
  requests: number;
  warmup: number;
  /** Instructions per request of each variant, one entry per run. */
  runs: Record<string, number[]>;
  /** Off gateway natively: CPU µs per request (user + system, and user only), median of rounds. */
  native_cpu_us_per_request: number;
  native_user_us_per_request: number;
  native_rounds: number[];
  otlp_exports: number;
  load_average: number[][];
}

export async function runTelemetryInstructions(log: (line: string) => void): Promise<TelemetryInstructionsResult> {
  // The collector accepts every export (its CPU is this process's, not the gateway's).
  const collector = await startDiscardingCollector();
  const collectorUrl = collector.url;
  const children: ChildProcess[] = [];
  const temp = mkdtempSync(join(tmpdir(), 'otel-instructions-'));
  const loads: number[][] = [loadavg().map((value) => Math.round(value * 10) / 10)];
  try {
    const upstream = await startListening(children, ['bench/fake-upstream-server.ts', '--port', '0']);
    const runs: Record<string, number[]> = {};
    const preload = gcPreload(temp);
    // The variants of a run count side by side (instructions do not depend on what else runs; it halves the time).
    for (let run = 1; run <= RUNS; run += 1) {
      const counted = await Promise.all(
        VARIANTS.map((variant) => countRun(temp, upstream.url, collectorUrl, variant, run, preload, log)),
      );
      for (const { variant, instructionsPerRequest, minutes } of counted) {
        (runs[variant] ??= []).push(instructionsPerRequest);
        log(
          `${variant} run ${run}: ${Math.round(instructionsPerRequest).toLocaleString('en')} instructions per request (${minutes.toFixed(1)} min)`,
        );
      }
      loads.push(loadavg().map((value) => Math.round(value * 10) / 10));
    }
    log('native CPU of the off gateway, for the conversion');
    const native =
      NATIVE_ROUNDS > 0 ? await nativeCpu(temp, upstream.url, collectorUrl) : { user: NaN, total: NaN, rounds: [] };
    loads.push(loadavg().map((value) => Math.round(value * 10) / 10));
    return {
      requests: REQUESTS,
      warmup: WARMUP,
      runs,
      native_cpu_us_per_request: native.total,
      native_user_us_per_request: native.user,
      native_rounds: native.rounds,
      otlp_exports: collector.exports(),
      load_average: loads,
    };
  } finally {
    collector.close();
    await Promise.all(children.map(stop));
    rmSync(temp, { recursive: true, force: true });
  }
}

// Run directly: print the table.
if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runTelemetryInstructions((line) => process.stderr.write(`${line}\n`));
  const off = median(result.runs.off ?? [NaN]);
  const usPerInstruction = result.native_cpu_us_per_request / off;
  const userUsPerInstruction = result.native_user_us_per_request / off;
  console.log(
    `${result.requests} requests counted per run after ${result.warmup} of warm-up, a full collection and ${REWARM} more, c=${CONNECTIONS}, node ${NODE_FLAGS.join(' ')}`,
  );
  console.log(
    '| gateway | instructions per request (median) | runs | spread | added | added µs (total CPU / user CPU) |',
  );
  console.log('|---|---:|---|---:|---:|---|');
  for (const [variant, values] of Object.entries(result.runs)) {
    const value = median(values);
    const spread = values.length > 1 ? ((Math.max(...values) - Math.min(...values)) / value) * 100 : 0;
    const added = value - off;
    console.log(
      `| ${variant} | ${Math.round(value).toLocaleString('en')} | ${values.map((v) => Math.round(v).toLocaleString('en')).join(', ')} | ${spread.toFixed(2)} % | ${variant === 'off' ? '—' : Math.round(added).toLocaleString('en')} | ${variant === 'off' ? '—' : `${(added * usPerInstruction).toFixed(1)} / ${(added * userUsPerInstruction).toFixed(1)}`} |`,
    );
  }
  console.log(
    `\noff natively: ${result.native_cpu_us_per_request.toFixed(0)} µs CPU per request (user ${result.native_user_us_per_request.toFixed(0)}), rounds ${result.native_rounds.map((v) => v.toFixed(0)).join(', ')}; ` +
      `${(usPerInstruction * 1e3).toFixed(3)} ns per instruction (user only ${(userUsPerInstruction * 1e3).toFixed(3)})`,
  );
  console.log(
    `OTLP exports received: ${result.otlp_exports}; load average along the way: ${result.load_average.map((l) => l.join(' ')).join(' | ')}`,
  );
}
