// What V8's young-generation collections move per request, for two (or more) builds side by side: each
// gateway runs with `--trace-gc-nvp`, serves non-streamed chat completions at c=32 (BENCH_GC_CONNECTIONS) in
// interleaved rounds, and the collections logged during the rounds are added up per request. Bytes a
// scavenge copies (survived) or promotes are what it costs: a far steadier figure than CPU time on a shared
// machine, where rounds of the same build differ by more than telemetry's whole cost.
//
//   npx tsx bench/experiments/gc-per-request.ts <cli-a> <cli-b> ...   e.g. dist/cli/main.js 'dist/cli/main.js?OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318'
//   (`<cli>?NAME=value&...` starts that build with these environment variables; BENCH_ROUNDS, default 3;
//   BENCH_ROUND_SECONDS, default 8)
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadChatCompletions } from '../load/chat-load.js';
import {
  cpuMicros,
  parseBuild,
  singleAgentGatewayYaml,
  startListening,
  stopChildren,
} from '../processes/start-listening.js';

const CONNECTIONS = Number(process.env.BENCH_GC_CONNECTIONS ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 8);

/** Sums of `--trace-gc-nvp` fields over the collections logged while counting. */
interface GcTotals {
  scavenges: number;
  markCompacts: number;
  /** Main-thread pause (ms) of scavenges and of mark-compacts. */
  scavengePauseMs: number;
  markCompactPauseMs: number;
  /** The scavenges' parallel work on V8's helper threads (ms). */
  backgroundMs: number;
  allocatedBytes: number;
  survivedBytes: number;
  promotedBytes: number;
}

function emptyTotals(): GcTotals {
  return {
    scavenges: 0,
    markCompacts: 0,
    scavengePauseMs: 0,
    markCompactPauseMs: 0,
    backgroundMs: 0,
    allocatedBytes: 0,
    survivedBytes: 0,
    promotedBytes: 0,
  };
}

/** Adds one `--trace-gc-nvp` line (`pause=1.1 … gc=s … allocated=… promoted=…`) to `totals`. */
function addLine(totals: GcTotals, line: string): void {
  const fields = new Map<string, number>();
  let kind: string | undefined;
  for (const pair of line.split(' ')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const key = pair.slice(0, at);
    if (key === 'gc') kind = pair.slice(at + 1);
    else fields.set(key, Number(pair.slice(at + 1)));
  }
  const pause = fields.get('pause') ?? 0;
  if (kind === 's') {
    totals.scavenges += 1;
    totals.scavengePauseMs += pause;
    totals.backgroundMs += fields.get('background.scavenge.parallel') ?? 0;
    totals.allocatedBytes += fields.get('allocated') ?? 0;
    totals.survivedBytes += fields.get('new_space_survived') ?? 0;
    totals.promotedBytes += fields.get('promoted') ?? 0;
  } else if (kind === 'mc' || kind === 'mmc') {
    totals.markCompacts += 1;
    totals.markCompactPauseMs += pause;
  }
}

const builds = process.argv.slice(2);
if (builds.length < 1) throw new Error('usage: tsx bench/experiments/gc-per-request.ts <cli-a> [<cli-b> ...]');
const children: ChildProcess[] = [];
const temp = mkdtempSync(join(tmpdir(), 'gc-per-request-'));
try {
  const upstream = await startListening(children, ['bench/fake-upstream-server.ts', '--port', '0']);
  const gateways: {
    build: string;
    url: string;
    pid: number;
    totals: GcTotals;
    ok: number;
    cpu: number;
    counting: boolean;
  }[] = [];
  for (const [index, build] of builds.entries()) {
    const { cli, variables } = parseBuild(build);
    const file = join(temp, `${index}.yaml`);
    writeFileSync(file, singleAgentGatewayYaml(upstream.url, join(temp, String(index))));
    const started = await startListening(children, ['--trace-gc-nvp', cli, 'serve', '--config', file], variables);
    const pid = started.child.pid ?? 0;
    const gateway = { build, url: started.url, pid, totals: emptyTotals(), ok: 0, cpu: 0, counting: false };
    let pending = '';
    started.child.stdout?.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      if (!gateway.counting) return;
      for (const line of lines) if (line.includes(' gc=')) addLine(gateway.totals, line);
    });
    gateways.push(gateway);
  }
  for (const gateway of gateways) await loadChatCompletions(gateway.url, 3, CONNECTIONS);
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const gateway of round % 2 === 0 ? gateways : [...gateways].reverse()) {
      gateway.counting = true;
      const cpuBefore = cpuMicros(gateway.pid);
      gateway.ok += (await loadChatCompletions(gateway.url, SECONDS, CONNECTIONS))['2xx'];
      gateway.cpu += cpuMicros(gateway.pid) - cpuBefore;
      // The last lines of the round reach us a moment after the load stops.
      await new Promise((resolve) => setTimeout(resolve, 200));
      gateway.counting = false;
    }
  }
  console.log(`c=${CONNECTIONS}, ${ROUNDS}x${SECONDS}s, per request (young-generation collections unless named)`);
  console.log(
    '| build | 2xx | CPU µs | allocated KB | survived KB | promoted KB | moved KB | scavenge pause µs | helper threads µs | mark-compacts | mark-compact pause µs |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const { build, ok, cpu, totals } of gateways) {
    const kb = (bytes: number) => (bytes / 1000 / ok).toFixed(1);
    const us = (ms: number) => ((ms * 1000) / ok).toFixed(1);
    console.log(
      `| ${build} | ${ok} | ${(cpu / ok).toFixed(0)} | ${kb(totals.allocatedBytes)} | ${kb(totals.survivedBytes)} | ${kb(totals.promotedBytes)} | ${kb(totals.survivedBytes + totals.promotedBytes)} | ${us(totals.scavengePauseMs)} | ${us(totals.backgroundMs)} | ${totals.markCompacts} | ${us(totals.markCompactPauseMs)} |`,
    );
  }
} finally {
  await stopChildren(children);
  rmSync(temp, { recursive: true, force: true });
}
