import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer } from '../admin/spawn-server.js';
import { tempDataDir } from '../support/databases.js';
import { REPO_ROOT, runCli } from './run-cli.js';

// Issue #38: following the README, a user writes ./agent-gateway.yaml (and the server keeps ./data) in the
// repository root. No test may read or write either: every server and CLI a test spawns runs in a working
// folder of its own, and goes through startCli (test/cli/run-cli.ts), which makes one.
let temp: { dataDir: string; remove(): void };
beforeAll(() => {
  temp = tempDataDir();
});
afterAll(() => temp.remove());

const isInside = (path: string, folder: string) => !relative(folder, path).startsWith('..');

describe("the user's ./agent-gateway.yaml and ./data", () => {
  it('reach no server or CLI a test spawns, even from the folder the tests run in', async () => {
    // This folder stands for a repository root the README was followed in: a config whose variable is unset,
    // and a data dir with the user's key. The real root is never written to.
    const root = join(temp.dataDir, 'user-root');
    mkdirSync(join(root, 'data'), { recursive: true });
    const userConfig =
      'webhooks:\n  - name: shop\n    verification: hmac-sha256\n    secret: ${UNSET_SHOP_SECRET_38}\n';
    writeFileSync(join(root, 'agent-gateway.yaml'), userConfig);
    writeFileSync(join(root, 'data', 'admin-api-key'), 'agk-the-users-own-key\n');
    const testsRanIn = process.cwd();
    process.chdir(root);
    try {
      // No --config and no --data-dir: only the working folder decides what is read and written.
      const server = await spawnServer([], {});
      try {
        const key = /admin API key was generated:\n\n {2}(agk-\S+)\n/.exec(server.output())?.[1];
        expect(key, server.output()).toBeDefined();
        if (existsSync(`/proc/${server.child.pid}/cwd`)) {
          const cwd = readlinkSync(`/proc/${server.child.pid}/cwd`);
          expect(isInside(cwd, REPO_ROOT) || isInside(cwd, root) || isInside(cwd, testsRanIn)).toBe(false);
        }
        const repoKey = join(REPO_ROOT, 'data', 'admin-api-key');
        if (existsSync(repoKey)) expect(readFileSync(repoKey, 'utf8')).not.toContain(key);
        const status = await runCli(['status', '--host', server.url, '--token', key!]);
        expect(status.stderr).toBe('');
        expect(status.code).toBe(0);
        // Without --token, the CLI finds no key in its own working folder: the user's is not sent.
        const anonymous = await runCli(['status', '--host', server.url]);
        expect(anonymous.stderr).toContain('401');
      } finally {
        await server.kill();
      }
      // Logs are written asynchronously: read once the process is gone.
      expect(server.output()).toContain('using the bundled example config');
    } finally {
      process.chdir(testsRanIn);
    }
    expect(readFileSync(join(root, 'agent-gateway.yaml'), 'utf8')).toBe(userConfig);
    expect(readdirSync(join(root, 'data'))).toEqual(['admin-api-key']);
  });

  it('are out of reach of every test: none starts the CLI but through startCli, nor in the repository root', () => {
    const offenders: string[] = [];
    const visit = (folder: string) => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        const path = join(folder, entry.name);
        if (entry.isDirectory()) visit(path);
        else if (/\.ts$/.test(entry.name) && !path.endsWith(join('test', 'cli', 'run-cli.ts'))) {
          const text = readFileSync(path, 'utf8');
          if (/(dist|src)\/cli\/(main|autopilot-main)\.[jt]s/.test(text) || /cwd:\s*REPO_ROOT\b/.test(text))
            offenders.push(relative(REPO_ROOT, path));
        }
      }
    };
    visit(join(REPO_ROOT, 'test'));
    expect(offenders).toEqual([]);
  });
});
