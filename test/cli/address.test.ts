import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_CONFIG_PATH } from '../../src/config/index.js';
import { tempDataDir } from '../support/databases.js';
import { freePort } from '../support/free-port.js';
import { runCli, startCli, type CliOptions } from './run-cli.js';

// Issue #38: serve and every client command find the port in the same places (--port, --host host:port, PORT,
// the config file's server.port), so a server on another port than 8000 is reached without repeating it.
let temp: { dataDir: string; remove(): void };
const servers: ChildProcessWithoutNullStreams[] = [];
beforeAll(() => {
  temp = tempDataDir();
});
afterEach(async () => {
  for (const child of servers.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
});
afterAll(() => temp.remove());

/** `agent-gateway serve …`, resolved with the URL it printed once it listens. */
function serve(args: string[], env: NodeJS.ProcessEnv, options: CliOptions = {}): Promise<string> {
  const child = startCli(['serve', ...args], env, options);
  servers.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /^listening on (http:\/\/\S+)$/m.exec(output);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code} before listening:\n${output}`)));
  });
}

/** `status --json` must reach the server and be let in with the key it generated. */
async function expectStatus(args: string[], env: NodeJS.ProcessEnv, options: CliOptions = {}): Promise<void> {
  const result = await runCli(['status', '--json', ...args], env, options);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(JSON.parse(result.stdout)).toMatchObject({ status: expect.any(String) });
}

describe('the port, for serve and the client commands', () => {
  it('comes from PORT', async () => {
    const port = await freePort();
    const env = { PORT: String(port), DATA_DIR: join(temp.dataDir, 'env') };
    expect(await serve([], env)).toBe(`http://127.0.0.1:${port}`);
    await expectStatus([], env);
  });

  it("comes from the config file's server.port, read by the CLI as by the server", async () => {
    const port = await freePort();
    const folder = join(temp.dataDir, 'config');
    const example = readFileSync(BUNDLED_CONFIG_PATH, 'utf8');
    expect(example).toMatch(/^ {2}port: 8000$/m);
    // The README's first step: the example copied to ./agent-gateway.yaml, here with another port.
    mkdirSync(folder);
    writeFileSync(join(folder, 'agent-gateway.yaml'), example.replace(/^ {2}port: 8000$/m, `  port: ${port}`));
    expect(await serve([], {}, { cwd: folder })).toBe(`http://127.0.0.1:${port}`);
    await expectStatus([], {}, { cwd: folder });
    const agents = await runCli(['agents', 'list'], {}, { cwd: folder });
    expect(agents.stdout).toContain('helper');
    // Elsewhere, the same file named by --config or AGENT_GATEWAY_CONFIG (its data_dir is relative to the folder).
    const file = join(folder, 'agent-gateway.yaml');
    const token = readFileSync(join(folder, 'data', 'admin-api-key'), 'utf8').trim();
    await expectStatus(['--config', file, '--token', token], {});
    await expectStatus(['--token', token], { AGENT_GATEWAY_CONFIG: file });
  });

  it('comes from --host 127.0.0.1:<port>', async () => {
    const port = await freePort();
    const dataDir = join(temp.dataDir, 'host');
    expect(await serve(['--port', String(port), '--data-dir', dataDir], {})).toBe(`http://127.0.0.1:${port}`);
    await expectStatus(['--host', `127.0.0.1:${port}`], { DATA_DIR: dataDir });
    const both = await runCli(['status', '--host', `127.0.0.1:${port}`, '--port', '1'], { DATA_DIR: dataDir });
    expect(both).toMatchObject({ code: 2, stderr: expect.stringContaining('name two different ports') });
  });

  it('is taken by serve from --host 127.0.0.1:<port> too', async () => {
    const port = await freePort();
    const dataDir = join(temp.dataDir, 'serve-host');
    expect(await serve(['--host', `127.0.0.1:${port}`, '--data-dir', dataDir], {})).toBe(`http://127.0.0.1:${port}`);
    await expectStatus(['--port', String(port)], { DATA_DIR: dataDir });
  });
});
