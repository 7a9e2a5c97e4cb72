import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUNDLED_CONFIG_PATH, loadConfig } from '../../src/config/index.js';
import { ConfigError } from '../../src/errors.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-gateway-config-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('config file lookup', () => {
  it('uses the bundled example when no file is given or found, and it parses', () => {
    const loaded = loadConfig({ cwd: dir, env: {} });
    expect(loaded).toMatchObject({ path: BUNDLED_CONFIG_PATH, bundled: true });
    expect(loaded.config.providers.dev).toEqual({ type: 'dev' });
    expect(loaded.config.agents.map((agent) => agent.name)).toEqual(['helper']);
    expect(loaded.config.agents[0]).toMatchObject({ model: 'dev/echo', tools: ['get_current_time'] });
  });

  it('prefers ./agent-gateway.yaml over the bundled example', () => {
    const local = write('agent-gateway.yaml', 'server: { port: 9001 }\n');
    expect(loadConfig({ cwd: dir, env: {} })).toMatchObject({
      path: local,
      bundled: false,
      config: { server: { port: 9001 } },
    });
  });

  it('prefers AGENT_GATEWAY_CONFIG over ./agent-gateway.yaml, and --config over both', () => {
    write('agent-gateway.yaml', 'server: { port: 9001 }\n');
    const fromEnv = write('env.yaml', 'server: { port: 9002 }\n');
    const fromFlag = write('flag.yaml', 'server: { port: 9003 }\n');
    expect(loadConfig({ cwd: dir, env: { AGENT_GATEWAY_CONFIG: 'env.yaml' } })).toMatchObject({
      path: fromEnv,
      config: { server: { port: 9002 } },
    });
    expect(loadConfig({ cwd: dir, env: { AGENT_GATEWAY_CONFIG: 'env.yaml' }, file: 'flag.yaml' })).toMatchObject({
      path: fromFlag,
      config: { server: { port: 9003 } },
    });
  });

  it('reports a config file that cannot be read, with its path', () => {
    expect(() => loadConfig({ cwd: dir, env: {}, file: 'missing.yaml' })).toThrow(
      new ConfigError(`${join(dir, 'missing.yaml')}: cannot read config file (ENOENT)`),
    );
  });

  it('reports errors with the full path of the file', () => {
    const path = write('bad.yaml', 'server:\n  port: 1\n  bogus: true\n');
    expect(() => loadConfig({ cwd: dir, env: {}, file: path })).toThrow(
      new ConfigError(`${path}:3: unknown key "bogus" in server`),
    );
  });

  it('interpolates ${VAR} from the environment it is given', () => {
    const path = write('gw.yaml', 'auth:\n  api_keys: ["${ADMIN_KEY}"]\n');
    expect(loadConfig({ cwd: dir, file: path, env: { ADMIN_KEY: 'key-from-env' } }).config.auth.api_keys).toEqual([
      'key-from-env',
    ]);
  });
});

describe('environment overrides', () => {
  const fileText =
    'server:\n  host: 10.0.0.1\n  port: 9000\n  data_dir: /srv/file-data\n  log_level: warn\ngateway:\n  agui: false\n';

  it('the environment wins over the file', () => {
    const { config } = loadConfig({
      cwd: dir,
      file: write('gw.yaml', fileText),
      env: {
        HOST: '0.0.0.0',
        PORT: '8123',
        DATA_DIR: '/srv/env-data',
        DATABASE_URL: 'postgres://gw:secret@db.internal:5432/gw',
        REDIS_URL: 'redis://127.0.0.1:6379',
        LOG_LEVEL: 'debug',
        REPLICA_ID: 'gateway-2',
      },
    });
    expect(config.server).toMatchObject({
      host: '0.0.0.0',
      port: 8123,
      data_dir: '/srv/env-data',
      database_url: 'postgres://gw:secret@db.internal:5432/gw',
      redis_url: 'redis://127.0.0.1:6379',
      log_level: 'debug',
      replica_id: 'gateway-2',
    });
  });

  it('empty variables are ignored', () => {
    const { config } = loadConfig({
      cwd: dir,
      file: write('gw.yaml', fileText),
      env: { HOST: '', PORT: '', SERVICE_GATEWAY_AGUI: '' },
    });
    expect(config.server).toMatchObject({ host: '10.0.0.1', port: 9000 });
    expect(config.gateway.agui).toBe(false);
  });

  it('command-line flags win over the environment', () => {
    const { config } = loadConfig({
      cwd: dir,
      file: write('gw.yaml', fileText),
      env: { HOST: '0.0.0.0', PORT: '8123', DATA_DIR: '/srv/env-data' },
      overrides: { host: '127.0.0.2', port: 0, data_dir: '/srv/flag-data' },
    });
    expect(config.server).toMatchObject({ host: '127.0.0.2', port: 0, data_dir: '/srv/flag-data' });
  });

  it('SERVICE_GATEWAY_* set the feature flags, which all default to true', () => {
    expect(loadConfig({ cwd: dir, file: write('empty.yaml', ''), env: {} }).config.gateway).toEqual({
      enabled: true,
      openai_compat: true,
      agui: true,
      webhooks: true,
      a2a: true,
      mcp: true,
    });
    const { config } = loadConfig({
      cwd: dir,
      file: write('gw.yaml', fileText),
      env: {
        SERVICE_GATEWAY_ENABLED: 'false',
        SERVICE_GATEWAY_OPENAI_COMPAT: '0',
        SERVICE_GATEWAY_AGUI: 'TRUE',
        SERVICE_GATEWAY_WEBHOOKS: 'off',
        SERVICE_GATEWAY_A2A: 'no',
        SERVICE_GATEWAY_MCP: 'off',
      },
    });
    expect(config.gateway).toEqual({
      enabled: false,
      openai_compat: false,
      agui: true,
      webhooks: false,
      a2a: false,
      mcp: false,
    });
  });

  it('rejects invalid values naming the variable', () => {
    const file = write('gw.yaml', fileText);
    expect(() => loadConfig({ cwd: dir, file, env: { PORT: 'eighty' } })).toThrow(
      /^environment variable PORT: expected a port number$/,
    );
    expect(() => loadConfig({ cwd: dir, file, env: { PORT: '70000' } })).toThrow(/^environment variable PORT: /);
    expect(() => loadConfig({ cwd: dir, file, env: { LOG_LEVEL: 'loud' } })).toThrow(
      /^environment variable LOG_LEVEL: /,
    );
    expect(() => loadConfig({ cwd: dir, file, env: { DATABASE_URL: 'mysql://db/app' } })).toThrow(
      /^environment variable DATABASE_URL: database_url must be a postgres:/,
    );
    expect(() => loadConfig({ cwd: dir, file, env: { SERVICE_GATEWAY_A2A: 'maybe' } })).toThrow(
      'environment variable SERVICE_GATEWAY_A2A: expected true or false, got "maybe"',
    );
  });

  it('the loaded config is frozen', () => {
    const { config } = loadConfig({ cwd: dir, env: {} });
    expect(Object.isFrozen(config)).toBe(true);
  });
});
