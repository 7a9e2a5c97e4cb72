// Latency at concurrency 1 with microsecond resolution, and CPU per request, of two (or more) builds against
// the upstream itself, interleaved in one run: non-streamed (whole answer) and streamed (time to the first
// stamped content chunk) chat completions against a fake upstream that answers at once.
//
//   npx tsx bench/experiments/c1-latency.ts <cli-a> <cli-b> ...   e.g. /work/main/dist/cli/main.js dist/cli/main.js
//   (`<cli>?NAME=value&...` starts that build with these environment variables)
//
// BENCH_ROUNDS (default 4), BENCH_ROUND_REQUESTS (default 1500 per target, mode and round), BENCH_C1_MODES
// (default `nonstream,stream`), BENCH_AB_NODE_OPTIONS / BENCH_AB_NODE_ARGS as in ab-cpu.ts.
// One client, one keep-alive socket, requests back to back (closed loop): what one caller waits for.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_API_KEY } from '../bench-settings.js';
import {
  cpuMicros,
  parseBuild,
  singleAgentGatewayYaml,
  startListening,
  stopChildren,
} from '../processes/start-listening.js';

type Mode = 'nonstream' | 'stream';

interface Target {
  name: string;
  url: string;
  model: string;
  pid?: number;
  agent: Agent;
  latencyUs: Record<Mode, number[]>;
  /** Each round's p50 (µs), to take the median over rounds: a neighbour's burst moves one round, not all. */
  roundP50: Record<Mode, number[]>;
  cpuUs: Record<Mode, number>;
  requests: Record<Mode, number>;
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const REQUESTS = Number(process.env.BENCH_ROUND_REQUESTS ?? 1500);
const MODES = (process.env.BENCH_C1_MODES ?? 'nonstream,stream').split(',') as Mode[];

/** One request; resolves with the microseconds to the whole answer (nonstream) or to its first stamped chunk. */
function once(target: Target, mode: Mode): Promise<number> {
  const body = JSON.stringify({
    model: target.model,
    messages: [{ role: 'user', content: 'Hello' }],
    ...(mode === 'stream' && { stream: true }),
  });
  return new Promise((resolve, reject) => {
    const sent = process.hrtime.bigint();
    let first: bigint | undefined;
    const req = request(
      `${target.url}/v1/chat/completions`,
      {
        method: 'POST',
        agent: target.agent,
        headers: { authorization: `Bearer ${BENCH_API_KEY}`, 'content-type': 'application/json' },
      },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`${target.name}: status ${res.statusCode}`));
        res.setEncoding('utf8');
        res.on('data', (text: string) => {
          if (mode === 'stream' && first === undefined && text.includes('[t=')) first = process.hrtime.bigint();
        });
        res.on('end', () => {
          const end = mode === 'stream' ? first : process.hrtime.bigint();
          if (end === undefined) reject(new Error(`${target.name}: no stamped chunk`));
          else resolve(Number(end - sent) / 1000);
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function measure(target: Target, mode: Mode, requests: number, record: boolean): Promise<void> {
  const cpuBefore = target.pid ? cpuMicros(target.pid) : 0;
  const round: number[] = [];
  for (let index = 0; index < requests; index += 1) round.push(await once(target, mode));
  if (!record) return;
  target.latencyUs[mode].push(...round);
  target.roundP50[mode].push(stats(round).p50);
  target.requests[mode] += requests;
  if (target.pid) target.cpuUs[mode] += cpuMicros(target.pid) - cpuBefore;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

function stats(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
  return { mean, p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99) };
}

/** The median over rounds of (this target's p50 − the upstream's p50 in the same round). */
function roundAdded(target: Target, direct: Target, mode: Mode): number {
  const added = target.roundP50[mode].map((p50, round) => p50 - direct.roundP50[mode][round]).sort((a, b) => a - b);
  return added.length % 2 ? added[(added.length - 1) / 2] : (added[added.length / 2 - 1] + added[added.length / 2]) / 2;
}

const clis = process.argv.slice(2);
if (clis.length < 1) throw new Error('usage: tsx bench/experiments/c1-latency.ts <cli-a> [<cli-b> ...]');
const children: ChildProcess[] = [];
const temp = mkdtempSync(join(tmpdir(), 'c1-latency-'));
const newTarget = (name: string, url: string, model: string, pid?: number): Target => ({
  name,
  url,
  model,
  pid,
  agent: new Agent({ keepAlive: true, maxSockets: 1 }),
  latencyUs: { nonstream: [], stream: [] },
  roundP50: { nonstream: [], stream: [] },
  cpuUs: { nonstream: 0, stream: 0 },
  requests: { nonstream: 0, stream: 0 },
});
try {
  const upstream = await startListening(children, ['bench/fake-upstream-server.ts', '--port', '0', '--stamp']);
  const targets: Target[] = [newTarget('direct', upstream.url, 'bench-model')];
  for (const [index, build] of clis.entries()) {
    const name = String.fromCharCode(65 + index);
    const { cli, variables } = parseBuild(build);
    const env: NodeJS.ProcessEnv = { NODE_OPTIONS: process.env.BENCH_AB_NODE_OPTIONS ?? '', ...variables };
    const file = join(temp, `${name}.yaml`);
    writeFileSync(file, singleAgentGatewayYaml(upstream.url, join(temp, name)));
    const nodeArgs = (process.env.BENCH_AB_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const gateway = await startListening(children, [...nodeArgs, cli, 'serve', '--config', file], env);
    targets.push(newTarget(`${name} ${build}`, gateway.url, 'bench-fast', gateway.child.pid));
  }
  const loadBefore = loadavg()[0];
  for (const target of targets) for (const mode of MODES) await measure(target, mode, 500, false);
  for (let round = 0; round < ROUNDS; round += 1) {
    // Each round in another order, so no target always runs right after the same other one.
    for (const target of round % 2 === 0 ? targets : [...targets].reverse())
      for (const mode of MODES) await measure(target, mode, REQUESTS, true);
  }
  console.log(
    `c=1, ${ROUNDS} rounds x ${REQUESTS} requests per target and mode; load average ${loadBefore.toFixed(2)} -> ${loadavg()[0].toFixed(2)}`,
  );
  for (const mode of MODES) {
    const direct = stats(targets[0].latencyUs[mode]);
    console.log(`\n${mode === 'stream' ? 'streamed, time to first token' : 'non-streamed, whole answer'} (µs)`);
    console.log(
      '| target | mean | p50 | p90 | p99 | added mean | added p50 | added p99 | added p50, median of rounds | CPU µs/request |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const target of targets) {
      const s = stats(target.latencyUs[mode]);
      const cpu = target.pid ? Math.round(target.cpuUs[mode] / target.requests[mode]) : '';
      console.log(
        `| ${target.name} | ${s.mean.toFixed(0)} | ${s.p50.toFixed(0)} | ${s.p90.toFixed(0)} | ${s.p99.toFixed(0)} | ${(s.mean - direct.mean).toFixed(0)} | ${(s.p50 - direct.p50).toFixed(0)} | ${(s.p99 - direct.p99).toFixed(0)} | ${roundAdded(target, targets[0], mode).toFixed(0)} | ${cpu} |`,
      );
    }
  }
} finally {
  await stopChildren(children);
  rmSync(temp, { recursive: true, force: true });
}
