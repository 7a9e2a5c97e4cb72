#!/usr/bin/env node
// Starts the built server once and stops it as soon as it listens: the first start after a build writes the V8 code
// cache of the server's chunks (dist/.compile-cache, docs/operations.md), so an image built with this never
// compiles them at a container's start. Uses the bundled example config and a throw-away data folder.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = mkdtempSync(join(tmpdir(), 'agent-gateway-warm-'));
const child = spawn(
  process.execPath,
  [
    join(root, 'dist/cli/main.js'),
    'serve',
    '--config',
    join(root, 'config/agent-gateway.example.yaml'),
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--data-dir',
    dataDir,
  ],
  { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LOG_LEVEL: 'warn' } },
);
let output = '';
child.stderr.on('data', (chunk) => (output += chunk));
child.stdout.on('data', (chunk) => {
  output += chunk;
  if (output.includes('listening on')) child.kill('SIGTERM');
});
/** @type {number} */
const code = await new Promise((resolve) => child.on('exit', (exit) => resolve(exit ?? 1)));
rmSync(dataDir, { recursive: true, force: true });
const cacheDir = join(root, 'dist/.compile-cache');
const files = readdirSync(cacheDir, { recursive: true }).length;
if (code !== 0 || files === 0) {
  process.stderr.write(`warming the compile cache failed (exit ${code}, ${files} cache files):\n${output}\n`);
  process.exit(1);
}
process.stdout.write(`compile cache written: ${files} files in ${cacheDir}\n`);
