// Telemetry off vs on in instructions per request: each gateway (dist/) under valgrind's callgrind, warmed
// up, then counted over a fixed number of non-streamed chat completions. Unlike CPU time, an instruction
// count does not grow with other processes' load, so small differences show on a shared machine.
// `npx tsx bench/telemetry-instructions.ts` (BENCH_WARMUP, default 1500; BENCH_REQUESTS, default 500;
// BENCH_VARIANTS, default off,on; a variant is off, on, on-proto or off-als as in bench/telemetry.ts).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { alsPreload } from './telemetry.js';

const API_KEY = 'bench-key-0123456789';
const CONNECTIONS = 8;

function start(
  args: string[],
  children: ChildProcess[],
  prefix: string[] = [],
): Promise<{ child: ChildProcess; url: string }> {
  const command = prefix.length ? prefix[0] : process.execPath;
  const nodeArgs = args[0].endsWith('.ts') ? ['--import', 'tsx', ...args] : args;
  const child = spawn(command, prefix.length ? [...prefix.slice(1), process.execPath, ...nodeArgs] : nodeArgs, {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve({ child, url: match[1] });
    };
    child.stdout.on('data', onData);
    child.stderr.resume(); // valgrind's own lines
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${out.slice(-500)}`)));
  });
}

function load(url: string, amount: number): Promise<number> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${url}/v1/chat/completions`,
        method: 'POST',
        connections: CONNECTIONS,
        amount,
        timeout: 120,
        headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'bench-fast', messages: [{ role: 'user', content: 'Hello' }] }),
      },
      (error, result) => {
        if (error) return reject(error instanceof Error ? error : new Error(String(error)));
        if (result.non2xx || result.errors)
          return reject(new Error(`${result.non2xx} non-2xx, ${result.errors} errors`));
        resolve(result.requests.total);
      },
    );
  });
}

function variantConfig(variant: string, collectorUrl: string): { telemetry: string; node: string[] } {
  const on = (protocol: string) =>
    `telemetry: { enabled: true, endpoint: "${collectorUrl}", export_interval_ms: 5000, protocol: ${protocol} }`;
  if (variant === 'off') return { telemetry: '', node: [] };
  if (variant === 'on') return { telemetry: on('http/json'), node: [] };
  if (variant === 'on-proto') return { telemetry: on('http/protobuf'), node: [] };
  if (variant === 'off-als') return { telemetry: '', node: ['--import', alsPreload()] };
  throw new Error(`unknown variant ${variant}`);
}

const warmup = Number(process.env.BENCH_WARMUP ?? 1500);
const requests = Number(process.env.BENCH_REQUESTS ?? 500);
const variants = (process.env.BENCH_VARIANTS ?? 'off,on').split(',');
const children: ChildProcess[] = [];
const collector = createServer((request, response) => {
  request.resume();
  request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
});
await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
const collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
const temp = mkdtempSync(join(tmpdir(), 'otel-instr-'));
try {
  const upstream = await start(['bench/fake-upstream-server.ts', '--port', '0'], children);
  console.log('| gateway | instructions per request (millions) |\n|---|---:|');
  for (const variant of variants) {
    const { telemetry, node } = variantConfig(variant, collectorUrl);
    const file = join(temp, `${variant}.yaml`);
    writeFileSync(
      file,
      `server: { host: 127.0.0.1, port: 0, data_dir: "${join(temp, variant)}", log_level: info }
auth: { api_keys: ["${API_KEY}"] }
providers:
  fast: { type: openai-compatible, base_url: "${upstream.url}/v1", api_key: bench }
agents:
  - { name: bench-fast, model: fast/bench-model }
${telemetry}`,
    );
    const out = join(temp, `${variant}.callgrind`);
    const gateway = await start([...node, 'dist/cli/main.js', 'serve', '--config', file], children, [
      'valgrind',
      '--tool=callgrind',
      '--smc-check=all-non-file',
      '--instr-atstart=no',
      '--dump-line=no',
      '--compress-strings=no',
      `--callgrind-out-file=${out}`,
    ]);
    const pid = String(gateway.child.pid);
    await load(gateway.url, warmup);
    execFileSync('callgrind_control', ['-i', 'on', pid]);
    const counted = await load(gateway.url, requests);
    execFileSync('callgrind_control', ['-i', 'off', pid]);
    execFileSync('callgrind_control', ['-d', pid]);
    const dumped = readFileSync(`${out}.1`, 'utf8');
    if (process.env.BENCH_DEBUG)
      console.log(dumped.split('\n').filter((line) => /^(summary|totals|events)/.test(line)));
    const total = Number(/^totals: (\d+)/m.exec(dumped)?.[1]);
    console.log(`| ${variant} | ${(total / counted / 1e6).toFixed(3)} |`);
    gateway.child.kill('SIGKILL');
  }
} finally {
  for (const child of children) child.kill('SIGKILL');
  collector.close();
  rmSync(temp, { recursive: true, force: true });
}
