// Gateway CPU per request of two (or more) builds, A/B interleaved in one run: non-streamed chat completions at c=32
// (BENCH_AB_CONNECTIONS) against a fake upstream that answers at once, each gateway its own process on its
// own store. CPU is utime+stime from /proc divided by requests, which a shared machine disturbs far less than
// requests/s.
//
//   npx tsx bench/ab-cpu.ts <cli-a> <cli-b> ...   e.g. /work/main/dist/cli/main.js dist/cli/main.js
//   (`<cli>?NAME=value&...` starts that build with these environment variables)
//
// BENCH_AB_ENGINE=sqlite (default) | postgres (a fresh database per gateway on TEST_POSTGRES_URL's server);
// BENCH_REDIS_URL adds Redis to the postgres engine (`redis=none` in a build's query leaves it out for that build); BENCH_ROUND_SECONDS (default 8), BENCH_ROUNDS (default 3);
// BENCH_AB_NODE_OPTIONS is passed to the gateways as NODE_OPTIONS (a --require preload, --cpu-prof, ...).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadChatCompletions } from './load/chat-load.js';
import { estimateDifference, formatEstimate } from './report/difference-estimate.js';
import pg from 'pg';
import {
  cpuMicros,
  parseBuild,
  singleAgentGatewayYaml,
  startListening,
  stopChildren,
} from './processes/start-listening.js';

const CONNECTIONS = Number(process.env.BENCH_AB_CONNECTIONS ?? 32);
const ENGINE = process.env.BENCH_AB_ENGINE ?? 'sqlite';
const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL;

/**
 * CPU per process of what serves one gateway: the PostgreSQL backends connected to its database (their
 * command line names it) and the Redis server, in microseconds, keyed `pg:<pid>` and `redis:<pid>`. What a
 * request costs them counts too on a machine they share with the gateway. Other clients of the same Redis
 * add to it.
 */
function serverCpuMicros(database: string | undefined): Map<string, number> {
  const cpu = new Map<string, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const kind =
        name === 'redis-server'
          ? 'redis'
          : database !== undefined && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(` ${database} `)
            ? 'pg'
            : undefined;
      if (!kind) continue;
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      cpu.set(`${kind}:${entry}`, (Number(fields[11]) + Number(fields[12])) * 10_000);
    } catch {
      // The process ended meanwhile.
    }
  }
  return cpu;
}

/** CPU the processes of one kind spent between two snapshots (a process started meanwhile counts from 0). */
function spent(before: Map<string, number>, after: Map<string, number>, kind: 'pg' | 'redis'): number {
  let total = 0;
  for (const [key, micros] of after) if (key.startsWith(`${kind}:`)) total += micros - (before.get(key) ?? 0);
  return total;
}

async function load(url: string, seconds: number): Promise<{ ok: number; latencyMs: number }> {
  const result = await loadChatCompletions(url, seconds, CONNECTIONS);
  return { ok: result['2xx'], latencyMs: result.latency.average };
}

const clis = process.argv.slice(2);
if (clis.length < 2) throw new Error('usage: tsx bench/ab-cpu.ts <cli-a> <cli-b> [<cli-c> ...]');
const children: ChildProcess[] = [];
const databases: string[] = [];
const temp = mkdtempSync(join(tmpdir(), 'ab-cpu-'));
// Connected when any build may run on PostgreSQL: BENCH_AB_ENGINE=postgres, or `engine=postgres` in a build's query.
const admin =
  clis.some((build) => build.includes('engine=postgres')) || ENGINE === 'postgres'
    ? new pg.Client({ connectionString: POSTGRES_ADMIN_URL })
    : undefined;
try {
  await admin?.connect();
  const upstream = await startListening(children, ['bench/fake-upstream-server.ts', '--port', '0']);
  const gateways: {
    name: string;
    cli: string;
    url: string;
    pid: number;
    ok: number;
    seconds: number;
    cpu: number;
    mainThreadCpu: number;
    pgCpu: number;
    redisCpu: number;
    database?: string;
    latency: number[];
    /** CPU µs per request, round by round. */
    rounds: number[];
  }[] = [];
  for (const [index, build] of clis.entries()) {
    const name = String.fromCharCode(65 + index);
    const { cli, variables: query } = parseBuild(build);
    // `engine=sqlite|postgres` in the query overrides BENCH_AB_ENGINE for that build.
    const { engine = ENGINE, redis, ...variables } = query;
    const env: NodeJS.ProcessEnv = { NODE_OPTIONS: process.env.BENCH_AB_NODE_OPTIONS ?? '', ...variables };
    let database: string | undefined;
    if (engine === 'postgres' && admin) {
      database = `ab_${name.toLowerCase()}_${process.pid}_${Date.now()}`;
      await admin.query(`create database ${database}`);
      databases.push(database);
      env.DATABASE_URL = POSTGRES_ADMIN_URL.replace(/\/[^/]*$/, `/${database}`);
      if (REDIS_URL && REDIS_URL !== 'none' && redis !== 'none') env.REDIS_URL = REDIS_URL;
    }
    const file = join(temp, `${name}.yaml`);
    writeFileSync(file, singleAgentGatewayYaml(upstream.url, join(temp, name)));
    // BENCH_AB_NODE_ARGS: node flags NODE_OPTIONS refuses (--cpu-prof --cpu-prof-dir=...).
    const nodeArgs = (process.env.BENCH_AB_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const gateway = await startListening(children, [...nodeArgs, cli, 'serve', '--config', file], env);
    gateways.push({
      name,
      cli: build,
      url: gateway.url,
      pid: gateway.child.pid!,
      pgCpu: 0,
      redisCpu: 0,
      database,
      ok: 0,
      seconds: 0,
      cpu: 0,
      mainThreadCpu: 0,
      latency: [],
      rounds: [],
    });
  }
  for (const gateway of gateways) await load(gateway.url, 3);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const seconds = Number(process.env.BENCH_ROUND_SECONDS ?? 8);
  for (let round = 0; round < rounds; round += 1) {
    // Each round in another order, so no build always runs right after the same other one.
    for (const gateway of round % 2 === 0 ? gateways : [...gateways].reverse()) {
      const cpuBefore = cpuMicros(gateway.pid);
      const mainBefore = cpuMicros(gateway.pid, gateway.pid);
      const serverBefore = serverCpuMicros(gateway.database);
      const started = performance.now();
      const result = await load(gateway.url, seconds);
      gateway.seconds += (performance.now() - started) / 1000;
      const cpu = cpuMicros(gateway.pid) - cpuBefore;
      gateway.cpu += cpu;
      gateway.rounds.push(cpu / result.ok);
      gateway.mainThreadCpu += cpuMicros(gateway.pid, gateway.pid) - mainBefore;
      const serverAfter = serverCpuMicros(gateway.database);
      gateway.pgCpu += spent(serverBefore, serverAfter, 'pg');
      gateway.redisCpu += spent(serverBefore, serverAfter, 'redis');
      gateway.ok += result.ok;
      gateway.latency.push(result.latencyMs);
    }
  }
  console.log(
    `engine ${ENGINE} (unless a build sets engine=)${REDIS_URL ? `, PostgreSQL with ${REDIS_URL}` : ''}, c=${CONNECTIONS}, ${rounds}x${seconds}s`,
  );
  console.log(
    '| build | 2xx | req/s | CPU µs/request | of which main thread | PostgreSQL backends CPU µs/request | Redis CPU µs/request | mean latency ms |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const gateway of gateways) {
    const latency = gateway.latency.reduce((sum, value) => sum + value, 0) / gateway.latency.length;
    console.log(
      `| ${gateway.name} ${gateway.cli} | ${gateway.ok} | ${Math.round(gateway.ok / gateway.seconds)} | ${Math.round(gateway.cpu / gateway.ok)} | ${Math.round(gateway.mainThreadCpu / gateway.ok)} | ${Math.round(gateway.pgCpu / gateway.ok)} | ${Math.round(gateway.redisCpu / gateway.ok)} | ${latency.toFixed(2)} |`,
    );
  }
  // Each round's difference from A in the same round, with their mean and its margin: how far to trust the
  // table's difference (within these processes; processes of one build differ too, bench/README.md).
  const [first, ...others] = gateways;
  for (const gateway of others) {
    const added = gateway.rounds.map((cpu, round) => cpu - first.rounds[round]).sort((a, b) => a - b);
    const median = added[Math.floor(added.length / 2)];
    console.log(
      `${gateway.name} minus A, CPU µs/request by round: median ${Math.round(median)}, ${formatEstimate(estimateDifference(added))} (${added.map(Math.round).join(', ')})`,
    );
  }
} finally {
  await stopChildren(children);
  for (const database of databases) await admin?.query(`drop database if exists ${database} with (force)`);
  await admin?.end();
  rmSync(temp, { recursive: true, force: true });
}
