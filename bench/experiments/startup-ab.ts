// Start-up of two (or more) builds, A/B interleaved: CPU time of the gateway to its `listening on` line (its own
// getrusage, from a preload), wall time from spawn to that line and to the first 200 of /healthz, and RSS
// there. The bundled example config, on a fresh data dir (every migration runs) or on one a previous start
// left (BENCH_STARTUP_DATA=existing). Each build starts once before the rounds, unmeasured: a build's first
// start writes its compile cache (dist/.compile-cache), the starts after it read it.
//
//   npx tsx bench/experiments/startup-ab.ts <cli-a> <cli-b> ...   e.g. /work/main/dist/cli/main.js dist/cli/main.js
//
// BENCH_ROUNDS (default 7); the order of the builds alternates from round to round; medians and ranges.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findFreePort } from '../processes/free-port.js';
import { pollUntilOk } from '../processes/poll-until-ok.js';
import { median } from '../report/sample-stats.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const EXISTING = process.env.BENCH_STARTUP_DATA === 'existing';
const CONFIG = fileURLToPath(new URL('../../config/agent-gateway.example.yaml', import.meta.url));
/**
 * Preloaded (`node --import`) into each gateway: at its `listening on` line it prints its own CPU time (getrusage,
 * all threads, µs) and RSS to stderr. A Node option, not a V8 flag, so the code cache stays valid.
 */
const PRELOAD_SOURCE = `
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  if (String(chunk).includes('listening on ')) {
    const cpu = process.cpuUsage();
    process.stderr.write('@@startup cpu_us=' + (cpu.user + cpu.system) + ' rss=' + process.memoryUsage.rss() + '\\n');
  }
  return write(chunk, ...rest);
};
`;
const PRELOAD = join(mkdtempSync(join(tmpdir(), 'startup-ab-preload-')), 'report-at-listening.mjs');
writeFileSync(PRELOAD, PRELOAD_SOURCE);

interface Sample {
  cpuMs: number;
  listeningMs: number;
  firstOkMs: number;
  rssMb: number;
}

async function start(cli: string, dataDir: string): Promise<Sample> {
  const port = await findFreePort();
  const began = performance.now();
  const child = spawn(
    process.execPath,
    ['--import', PRELOAD, cli, 'serve', '--config', CONFIG, '--data-dir', dataDir, '--port', String(port)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    let stderr = '';
    const listening = new Promise<{ ms: number; cpuUs: number; rss: number }>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /@@startup cpu_us=(\d+) rss=(\d+)/.exec(stderr);
        if (match) resolve({ ms: performance.now() - began, cpuUs: Number(match[1]), rss: Number(match[2]) });
      });
      void exited.then(() => reject(new Error(`${cli} exited before listening:\n${stderr}`)));
    });
    const firstOk = pollUntilOk(`http://127.0.0.1:${port}/healthz`, 60_000).then(() => performance.now() - began);
    const [line, okMs] = await Promise.all([listening, firstOk]);
    return { cpuMs: line.cpuUs / 1000, listeningMs: line.ms, firstOkMs: okMs, rssMb: line.rss / 2 ** 20 };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

async function startOnce(cli: string, existing: string | undefined): Promise<Sample> {
  const dataDir = existing ?? mkdtempSync(join(tmpdir(), 'startup-ab-'));
  try {
    return await start(cli, dataDir);
  } finally {
    if (!existing) rmSync(dataDir, { recursive: true, force: true });
  }
}

const clis = process.argv.slice(2);
if (clis.length === 0) throw new Error('usage: tsx bench/experiments/startup-ab.ts <cli> <cli> ...');
const dataDirs = clis.map(() => (EXISTING ? mkdtempSync(join(tmpdir(), 'startup-ab-')) : undefined));
const samples = clis.map(() => [] as Sample[]);
const loads: number[] = [loadavg()[0]];
for (const [index, cli] of clis.entries()) await startOnce(cli, dataDirs[index]);
for (let round = 0; round < ROUNDS; round += 1) {
  const order = clis.map((_, index) => index);
  if (round % 2 === 1) order.reverse();
  for (const index of order) samples[index].push(await startOnce(clis[index], dataDirs[index]));
  loads.push(loadavg()[0]);
}
for (const dir of dataDirs) if (dir) rmSync(dir, { recursive: true, force: true });
rmSync(dirname(PRELOAD), { recursive: true, force: true });

const fmt = (values: number[], digits = 0) =>
  `${median(values)?.toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
console.log(
  `${ROUNDS} rounds, ${EXISTING ? 'existing' : 'fresh'} data dir, load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`,
);
console.log('| build | CPU to listening, ms | wall to listening, ms | wall to first 200, ms | RSS at listening, MiB |');
console.log('|---|---:|---:|---:|---:|');
for (const [index, cli] of clis.entries()) {
  const list = samples[index];
  console.log(
    `| ${cli} | ${fmt(list.map((s) => s.cpuMs))} | ${fmt(list.map((s) => s.listeningMs))} | ${fmt(list.map((s) => s.firstOkMs))} | ${fmt(
      list.map((s) => s.rssMb),
      1,
    )} |`,
  );
  console.log(`  CPU rounds: ${list.map((s) => s.cpuMs.toFixed(0)).join(' ')}`);
}
