import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDataDir } from '../support/databases.js';
import { runCli, startCli } from './run-cli.js';

let temp: { dataDir: string; remove(): void };
beforeAll(() => {
  temp = tempDataDir();
});
afterAll(() => temp.remove());

interface Server {
  child: ChildProcessWithoutNullStreams;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts `agent-gateway serve` and resolves once it printed its URL (or rejects with its output if it exits first). */
function serve(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Server> {
  const child = startCli(['serve', '--host', '127.0.0.1', '--port', '0', ...args], env);
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(stdout);
      if (match) resolve({ child, url: match[1], stdout: () => stdout, stderr: () => stderr, exited });
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code} before listening:\n${stdout}\n${stderr}`)));
  });
}

describe('agent-gateway serve', () => {
  it('exits non-zero and prints file:line for a bad config file', async () => {
    const file = join(temp.dataDir, 'bad.yaml');
    writeFileSync(file, 'server:\n  port: 8000\n  bogus: true\nagents:\n  - name: a\n    model: nowhere/m\n');
    const result = await runCli(['serve', '--config', file, '--data-dir', temp.dataDir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `config error:\n${file}:3: unknown key "bogus" in server\n${file}:6: agents.0.model: unknown provider "nowhere" (configured: none)\n`,
    );
    expect(result.stdout).toBe('');
  });

  it('exits non-zero naming the variable for a bad environment value', async () => {
    const result = await runCli(['serve', '--data-dir', temp.dataDir], { PORT: 'eighty' });
    expect(result).toMatchObject({
      code: 2,
      stderr: 'config error:\nenvironment variable PORT: expected a port number\n',
    });
  });

  it('rejects a port out of range', async () => {
    const result = await runCli(['serve', '--port', '65536']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('must be a port number from 0 to 65535');
  });

  it('serves the bundled example with a generated admin key, and drains and exits 0 on SIGTERM', async () => {
    const dataDir = join(temp.dataDir, 'bundled');
    const server = await serve(['--data-dir', dataDir]);
    const key = readFileSync(join(dataDir, 'admin-api-key'), 'utf8').trim();
    expect(server.stderr()).toContain(`admin API key was generated:\n\n  ${key}\n`);
    expect(server.stdout()).not.toContain(key);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/gateway/tokens`)).status).toBe(401);
    expect((await fetch(`${server.url}/gateway/tokens`, { headers: { 'x-api-key': key } })).status).toBe(200);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    // Logs are written asynchronously: read them once the process is gone.
    expect(server.stdout()).toContain('using the bundled example config');
    expect(server.stdout()).toContain('SIGTERM received: draining');

    // A second start reuses the key and does not print it again; SIGINT drains too.
    const again = await serve(['--data-dir', dataDir]);
    expect(again.stderr()).not.toContain(key);
    expect((await fetch(`${again.url}/gateway/tokens`, { headers: { 'x-api-key': key } })).status).toBe(200);
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
  });
});
