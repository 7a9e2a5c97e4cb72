// Storage and latency of one long session (issue 41 item 2): 12 turns of a ~900 KB user message under one
// X-Session-Id, each a non-streamed chat completion; prints the data folder's size and each turn's latency.
//
//   npx tsx bench/experiments/session-growth.ts [cli]   (default dist/cli/main.js; BENCH_TURNS, BENCH_TURN_BYTES,
//   BENCH_EXTRA_YAML for more config, e.g. "sessions: { max_history_bytes: 20000000 }")
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_API_KEY } from '../bench-settings.js';
import { singleAgentGatewayYaml, startListening, stopChildren } from '../processes/start-listening.js';

const TURNS = Number(process.env.BENCH_TURNS ?? 12);
const TURN_BYTES = Number(process.env.BENCH_TURN_BYTES ?? 900_000);

function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(path) : statSync(path).size;
  }
  return total;
}

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

async function main(): Promise<void> {
  const cli = process.argv[2] ?? 'dist/cli/main.js';
  const children: ChildProcess[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'session-growth-'));
  const dataDir = join(dir, 'data');
  try {
    const upstream = await startListening(children, ['bench/fake-upstream-server.ts', '--port', '0']);
    const config = join(dir, 'gateway.yaml');
    writeFileSync(config, singleAgentGatewayYaml(upstream.url, dataDir, process.env.BENCH_EXTRA_YAML ?? ''));
    const gateway = await startListening(children, [cli, 'serve', '--config', config, '--port', '0']);
    const before = folderBytes(dataDir);
    console.log(`data folder before: ${mib(before)} MiB`);
    const sessionId = `growth-${Date.now()}`;
    for (let turn = 1; turn <= TURNS; turn++) {
      const content = `turn ${turn} `.padEnd(TURN_BYTES, 'lorem ipsum dolor sit amet ');
      const started = performance.now();
      const response = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${BENCH_API_KEY}`,
          'content-type': 'application/json',
          'x-session-id': sessionId,
        },
        body: JSON.stringify({ model: 'bench-fast', messages: [{ role: 'user', content }] }),
      });
      const text = await response.text();
      const seconds = (performance.now() - started) / 1000;
      const status = response.ok ? 'ok' : `${response.status} ${text.slice(0, 200)}`;
      console.log(`turn ${turn}: ${seconds.toFixed(2)} s, data folder ${mib(folderBytes(dataDir))} MiB (${status})`);
    }
  } finally {
    await stopChildren(children);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
