import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_KEY_FILE, loadOrCreateAdminKey } from '../../src/auth/index.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { tempDataDir } from '../support/databases.js';

const OPEN_YAML = `
providers:
  dev: { type: dev }
agents:
  - name: helper
    model: dev/echo
`;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(yaml: string, dataDir: string): Promise<TestApp> {
  const app = await startTestApp(yaml, { dataDir, listen: false });
  cleanups.push(() => app.stop());
  return app;
}

function dataDir(): string {
  const temp = tempDataDir();
  cleanups.push(temp.remove);
  return temp.dataDir;
}

const status = async (app: TestApp, headers: Record<string, string> = {}) =>
  (await app.inject('/gateway/tokens', { headers })).status;

describe('the generated admin API key', () => {
  it('is created (mode 0600) when neither API keys nor a JWT secret are configured, and authenticates', async () => {
    const dir = dataDir();
    const app = await start(OPEN_YAML, dir);
    const path = join(dir, ADMIN_KEY_FILE);
    expect(app.generatedAdminKey).toEqual({ key: expect.stringMatching(/^agk-[0-9a-f]{48}$/), path });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toBe(`${app.generatedAdminKey!.key}\n`);
    expect(await status(app)).toBe(401);
    expect(await status(app, { 'x-api-key': app.generatedAdminKey!.key })).toBe(200);
    expect(await status(app, { authorization: `Bearer ${app.generatedAdminKey!.key}` })).toBe(200);
    expect(app.logs.text).not.toContain(app.generatedAdminKey!.key);
  });

  it('is reused on restart and not announced again', async () => {
    const dir = dataDir();
    const first = await start(OPEN_YAML, dir);
    const key = first.generatedAdminKey!.key;
    await first.stop({ keepData: true });
    const second = await start(OPEN_YAML, dir);
    expect(second.generatedAdminKey).toBeUndefined();
    expect(await status(second, { 'x-api-key': key })).toBe(200);
  });

  it('is not created when an API key or a JWT secret is configured', async () => {
    for (const auth of [
      'auth: { api_keys: [configured-key-1] }',
      'auth: { jwt: { secret: a-configured-jwt-secret-0123 } }',
    ]) {
      const dir = dataDir();
      const app = await start(`${auth}\n${OPEN_YAML}`, dir);
      expect(app.generatedAdminKey).toBeUndefined();
      expect(existsSync(join(dir, ADMIN_KEY_FILE))).toBe(false);
    }
  });

  it('refuses to start on an empty key file instead of running without a key', () => {
    const dir = dataDir();
    writeFileSync(join(dir, ADMIN_KEY_FILE), '\n');
    expect(() => loadOrCreateAdminKey(dir)).toThrow(/holds no usable admin API key .* delete the file/);
  });

  it('creates the data dir when it does not exist yet', () => {
    const dir = join(dataDir(), 'nested', 'data');
    const created = loadOrCreateAdminKey(dir);
    expect(created.created).toBe(true);
    expect(loadOrCreateAdminKey(dir)).toEqual({ ...created, created: false });
  });
});
