// Issue 15: replicas on one PostgreSQL and one Redis. Two numbers:
//  - requests per second at c=32 (non-streamed chat completions, fast fake upstream) through one replica and
//    through two (the 32 connections split 16/16), every run and step persisted in PostgreSQL;
//  - the time from a `kill -9` of replica A with runs in flight to the first event of the resumed run that a
//    client attached through replica B receives (the lease has to expire first: runs.lease_seconds).
// `npm run bench -- replicas` once bench/run.ts lists `replicasScenario`, or standalone:
// `npx tsx bench/replicas.ts [--no-build]` (prints the result as JSON). Needs TEST_POSTGRES_URL (default
// postgres://postgres@127.0.0.1:5432/postgres) and TEST_REDIS_URL (default redis://127.0.0.1:6379).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { BENCH_API_KEY, BENCH_PROMPT, BENCH_SETTINGS, UPSTREAM_PROFILES } from './bench-settings.js';
import { stopAllChildren } from './processes/child-registry.js';
import { ensureBuild, type GatewayRuntime } from './processes/ensure-build.js';
import { findFreePort } from './processes/free-port.js';
import { spawnService, type ServiceProcess } from './processes/spawn-service.js';
import type { Measurement } from './report/bench-results.js';
import { loadAverage } from './report/machine-info.js';
import type { BenchContext, Scenario, ScenarioOutput } from './scenarios/scenario.js';

const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const UPSTREAM_SCRIPT = fileURLToPath(new URL('./fake-upstream-server.ts', import.meta.url));
/** Short so that the bench does not wait 30 s per kill; the measured failover is dominated by it. */
const LEASE_SECONDS = Number(process.env.BENCH_REPLICAS_LEASE_SECONDS ?? 6);
const CONNECTIONS = 32;
const RUNS_IN_FLIGHT = 5;

const config = (fast: string, slow: string) => `
server: { host: 127.0.0.1, log_level: warn }
auth: { api_keys: ["${BENCH_API_KEY}"] }
providers:
  fast: { type: openai-compatible, base_url: "${fast}/v1", api_key: bench }
  slow: { type: openai-compatible, base_url: "${slow}/v1", api_key: bench }
agents:
  - { name: bench-fast, model: fast/bench-model }
  - { name: bench-slow, model: slow/bench-model }
runs: { lease_seconds: ${LEASE_SECONDS} }
`;

interface Replica {
  url: string;
  process: ServiceProcess;
}

/** Runs the scenario: its own database, upstreams and two gateway processes, all stopped at the end. */
export async function runReplicasBench(context: Pick<BenchContext, 'runtime' | 'log'>): Promise<ScenarioOutput> {
  const database = await createDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'agent-gateway-bench-replicas-'));
  const started: ServiceProcess[] = [];
  try {
    const [fast, slow] = await Promise.all([startUpstream('fast'), startUpstream('slow')]);
    started.push(fast, slow);
    const file = join(dir, 'gateway.yaml');
    writeFileSync(file, config(fast.ready[1], slow.ready[1]));
    const start = async (name: string): Promise<Replica> => {
      const port = await findFreePort();
      const process = await spawnService({
        name: `replica ${name}`,
        nodeArgs: [
          ...context.runtime.nodeArgs,
          'serve',
          '--config',
          file,
          '--port',
          String(port),
          '--data-dir',
          join(dir, name),
        ],
        env: { ...globalThis.process.env, DATABASE_URL: database.url, REDIS_URL },
        readyLine: /listening on (http:\/\/\S+)/,
        healthUrl: `http://127.0.0.1:${port}/healthz`,
        readyTimeoutMs: 120_000,
      });
      started.push(process);
      return { url: `http://127.0.0.1:${port}`, process };
    };
    // One after the other: the first applies the migrations.
    const a = await start('a');
    const b = await start('b');
    await load([a], 1); // warm-up (JIT, pools), not recorded
    await load([a, b], 1);
    // Interleaved rounds, so that the drift of a shared, busy machine falls on both alike.
    const rounds: { one: LoadResult[]; two: LoadResult[] } = { one: [], two: [] };
    const loadBefore = loadAverage();
    for (let round = 0; round < BENCH_SETTINGS.rounds; round += 1) {
      rounds.one.push(await load([a], BENCH_SETTINGS.roundSeconds));
      rounds.two.push(await load([a, b], BENCH_SETTINGS.roundSeconds));
    }
    const one = { ...combine(rounds.one), load_1m: loadBefore[0] };
    const two = { ...combine(rounds.two), load_1m: loadAverage()[0] };
    context.log(
      `  c=${CONNECTIONS}: one replica ${one.rps} rps (p50 ${one.p50_ms} ms), two replicas ${two.rps} rps (p50 ${two.p50_ms} ms)`,
    );
    const failover = await killAndResume(a, b);
    context.log(
      `  kill -9 of A with ${RUNS_IN_FLIGHT} runs in flight: first resumed event through B after ${failover.first_resumed_event_ms} ms, all ${failover.finished} finished after ${failover.all_finished_ms} ms (lease ${LEASE_SECONDS} s)`,
    );
    const measurements: Measurement[] = [
      { case: `non-stream c=${CONNECTIONS}`, target: 'one replica', metrics: one },
      { case: `non-stream c=${CONNECTIONS}`, target: 'two replicas', metrics: two },
      {
        case: `kill -9 with ${RUNS_IN_FLIGHT} runs in flight`,
        target: 'failover A -> B',
        metrics: { lease_seconds: LEASE_SECONDS, ...failover },
      },
    ];
    return {
      measurements,
      ratios: [
        {
          case: `non-stream c=${CONNECTIONS}`,
          metric: 'rps',
          pair: 'two/one',
          ratio: one.rps ? Math.round((two.rps / one.rps) * 100) / 100 : null,
          difference: Math.round((two.rps - one.rps) * 10) / 10,
        },
      ],
      notes: [
        'Both replicas, PostgreSQL, Redis, the upstreams and the load generator share the one machine: two replicas on two cores compete with everything else.',
        `The failover time includes the lease (runs.lease_seconds ${LEASE_SECONDS}; heartbeats and sweeps every sixth of it).`,
      ],
    };
  } finally {
    await Promise.all(started.reverse().map((process) => process.stop()));
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
  }
}

export const replicasScenario: Scenario = {
  name: 'replicas',
  description: `Two replicas on PostgreSQL + Redis: rps at c=${CONNECTIONS} through one vs two, and kill -9 of one with ${RUNS_IN_FLIGHT} runs in flight to the first resumed event seen through the other.`,
  needsServices: false,
  run: runReplicasBench,
};

function startUpstream(profile: 'fast' | 'slow'): Promise<ServiceProcess> {
  const settings = UPSTREAM_PROFILES[profile];
  return spawnService({
    name: `upstream-${profile}`,
    nodeArgs: [
      '--import',
      'tsx',
      UPSTREAM_SCRIPT,
      '--latency-ms',
      String(settings.latencyMs),
      '--response-bytes',
      String(settings.responseBytes),
      '--chunks',
      String(settings.chunks),
      '--chunk-interval-ms',
      String(settings.chunkIntervalMs),
      // Each chunk carries the moment the upstream wrote it: text written after the kill is the resumed run's.
      ...(profile === 'slow' ? ['--stamp'] : []),
    ],
    readyLine: /^listening on (http:\/\/\S+)$/,
    ipc: true,
  });
}

/** c=32 split evenly over the replicas, all at once; rps is the sum of their 2xx per second. */
async function load(replicas: Replica[], seconds: number) {
  const body = JSON.stringify({ model: 'bench-fast', messages: [{ role: 'user', content: BENCH_PROMPT }] });
  const latencies: number[] = [];
  const results = await Promise.all(
    replicas.map(
      (replica) =>
        new Promise<autocannon.Result>((resolve, reject) => {
          const instance = autocannon(
            {
              url: `${replica.url}/v1/chat/completions`,
              connections: CONNECTIONS / replicas.length,
              duration: seconds,
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${BENCH_API_KEY}` },
              body,
            },
            (error, result) => (error ? reject(error) : resolve(result)),
          );
          instance.on('response', (_client, status, _bytes, ms) => {
            if (status >= 200 && status < 300) latencies.push(ms);
          });
        }),
    ),
  );
  return {
    seconds,
    latencies,
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
    errors: results.reduce((sum, result) => sum + result.errors, 0),
  };
}

type LoadResult = Awaited<ReturnType<typeof load>>;

/** rps over all rounds (2xx per second) and latency percentiles over every response. */
function combine(results: LoadResult[]) {
  const latencies = results.flatMap((result) => result.latencies).sort((x, y) => x - y);
  const seconds = results.reduce((sum, result) => sum + result.seconds, 0);
  const ok = latencies.length;
  const at = (q: number) => (ok ? Math.round(latencies[Math.min(ok - 1, Math.floor(q * ok))] * 10) / 10 : null);
  return {
    rps: Math.round((ok / seconds) * 10) / 10,
    p50_ms: at(0.5),
    p99_ms: at(0.99),
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
    errors: results.reduce((sum, result) => sum + result.errors, 0),
  };
}

/**
 * Starts runs of the slow agent on A, attaches to each through B, waits for streamed text, kills A with SIGKILL
 * and times the first event B's clients receive after the kill, and the last terminal event.
 */
async function killAndResume(a: Replica, b: Replica) {
  const headers = { authorization: `Bearer ${BENCH_API_KEY}`, 'content-type': 'application/json' };
  const runIds = await Promise.all(
    Array.from({ length: RUNS_IN_FLIGHT }, async (_, index) => {
      const response = await fetch(`${a.url}/agui/runs`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ agent_name: 'bench-slow', message: `run ${index}` }),
      });
      if (!response.ok) throw new Error(`starting a run on A: ${response.status} ${await response.text()}`);
      // Read to the end (the kill cuts it): a client that goes away cancels its run.
      void response.text().catch(() => undefined);
      return response.headers.get('x-run-id')!;
    }),
  );
  let killedAt = Number.POSITIVE_INFINITY;
  let killedAtEpoch = Number.POSITIVE_INFINITY;
  let firstAfterKill: number | undefined;
  let sawText = 0;
  let ended: Promise<{ event: string; at: number }[]> = Promise.resolve([]);
  const textSeen = new Promise<void>((resolve, reject) => {
    const clients = runIds.map(async (runId) => {
      const response = await fetch(`${b.url}/agui/ws?run_id=${runId}`, { headers });
      let buffer = '';
      let counted = false;
      for await (const chunk of response.body!.pipeThrough(new TextDecoderStream())) {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          buffer = buffer.slice(end + 2);
          if (!event) continue; // keep-alive comments
          const now = performance.now();
          // A's last chunks may still arrive after the kill: they were written by the upstream before it.
          const stamp = /\[t=(\d+(?:\.\d+)?)\]/.exec(block)?.[1];
          const fromResumed =
            event !== 'TEXT_MESSAGE_CONTENT' || (stamp !== undefined && Number(stamp) > killedAtEpoch);
          if (now > killedAt && fromResumed && firstAfterKill === undefined) firstAfterKill = now - killedAt;
          if (!counted && event === 'TEXT_MESSAGE_CONTENT') {
            counted = true;
            if ((sawText += 1) === RUNS_IN_FLIGHT) resolve();
          }
          if (event === 'RUN_FINISHED' || event === 'RUN_ERROR') {
            if (!counted) reject(new Error(`run ${runId} ended (${event}) before A was killed`));
            return { event, at: now };
          }
        }
      }
      return { event: 'closed', at: performance.now() };
    });
    ended = Promise.all(clients);
  });
  await textSeen;
  killedAt = performance.now();
  killedAtEpoch = performance.timeOrigin + killedAt;
  a.process.child.kill('SIGKILL');
  const ends = await ended;
  return {
    first_resumed_event_ms: firstAfterKill === undefined ? null : Math.round(firstAfterKill),
    all_finished_ms: Math.round(Math.max(...ends.map((end) => end.at)) - killedAt),
    finished: ends.filter((end) => end.event === 'RUN_FINISHED').length,
  };
}

async function createDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `ag_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const runtime: GatewayRuntime = ensureBuild({ skip: process.argv.includes('--no-build'), log });
  log(`replicas bench (load average ${loadAverage().join(' ')})`);
  runReplicasBench({ runtime, log })
    .then((output) => process.stdout.write(`${JSON.stringify(output, null, 2)}\n`))
    .catch((error: Error) => {
      log(`replicas bench failed: ${error.stack ?? error.message}`);
      process.exitCode = 1;
    })
    .finally(() => void stopAllChildren());
}
