import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveClientSettings, splitHostPort } from '../../src/config/index.js';
import { tempDataDir } from '../support/databases.js';

// Every call names a working folder of its own: the default one would be the repository root's.
let temp: { dataDir: string; remove(): void };
beforeEach(() => {
  temp = tempDataDir();
});
afterEach(() => temp.remove());

const settings = (flags: Parameters<typeof resolveClientSettings>[0], env: NodeJS.ProcessEnv = {}) =>
  resolveClientSettings(flags, env, temp.dataDir);

describe('CLI client settings', () => {
  it('default to the bundled config: http://127.0.0.1:8000, the key from ./data', () => {
    expect(settings({})).toEqual({ baseUrl: 'http://127.0.0.1:8000', token: undefined });
    mkdirSync(join(temp.dataDir, 'data'));
    writeFileSync(join(temp.dataDir, 'data', 'admin-api-key'), 'agk-in-data\n');
    expect(settings({}).token).toBe('agk-in-data');
  });

  it('build the base URL from host and port, bracketing IPv6, or take a full URL as it is', () => {
    expect(settings({ host: '127.0.0.1', port: '9000' }).baseUrl).toBe('http://127.0.0.1:9000');
    expect(settings({ host: '::1', port: 9000 }).baseUrl).toBe('http://[::1]:9000');
    expect(settings({ host: 'https://gw.example.com/', port: '9000' }).baseUrl).toBe('https://gw.example.com');
  });

  it('take the port from --port, then --host host:port, then PORT, then server.port in the config, then 8000', () => {
    writeFileSync(join(temp.dataDir, 'agent-gateway.yaml'), 'server:\n  host: 0.0.0.0\n  port: ${GW_PORT:-8100}\n');
    expect(settings({}).baseUrl).toBe('http://127.0.0.1:8100');
    expect(settings({}, { GW_PORT: '8200' }).baseUrl).toBe('http://127.0.0.1:8200');
    expect(settings({}, { PORT: '8300' }).baseUrl).toBe('http://127.0.0.1:8300');
    expect(settings({ host: 'localhost:8400' }, { PORT: '8300' }).baseUrl).toBe('http://localhost:8400');
    expect(settings({ host: '[::1]:8400' }).baseUrl).toBe('http://[::1]:8400');
    expect(settings({ port: 8500 }, { PORT: '8300', HOST: 'gw.internal' }).baseUrl).toBe('http://gw.internal:8500');
    expect(settings({ host: 'localhost:8400', port: 8400 }).baseUrl).toBe('http://localhost:8400');
    expect(() => settings({ host: 'localhost:8400', port: 8500 })).toThrow('name two different ports');
  });

  it('read the config file the server would: --config, then AGENT_GATEWAY_CONFIG, then ./agent-gateway.yaml', () => {
    const write = (name: string, port: number) =>
      writeFileSync(
        join(temp.dataDir, name),
        `server:\n  port: ${port}\nproviders:\n  x:\n    api_key: \${UNSET_KEY}\n`,
      );
    write('agent-gateway.yaml', 8101);
    write('env.yaml', 8102);
    write('flag.yaml', 8103);
    expect(settings({}).baseUrl).toBe('http://127.0.0.1:8101');
    expect(settings({}, { AGENT_GATEWAY_CONFIG: 'env.yaml' }).baseUrl).toBe('http://127.0.0.1:8102');
    expect(settings({ config: 'flag.yaml' }, { AGENT_GATEWAY_CONFIG: 'env.yaml' }).baseUrl).toBe(
      'http://127.0.0.1:8103',
    );
    expect(() => settings({ config: 'missing.yaml' })).toThrow('cannot read config file');
  });

  it('report a bad port by its source', () => {
    expect(() => settings({}, { PORT: 'eighty' })).toThrow('environment variable PORT: expected a port number');
    writeFileSync(join(temp.dataDir, 'agent-gateway.yaml'), 'server:\n  port: 99999\n');
    expect(() => settings({})).toThrow(`${join(temp.dataDir, 'agent-gateway.yaml')}:2: server.port: expected a port`);
    expect(() => splitHostPort('localhost:http')).toThrow('--host localhost:http: expected host:port');
    expect(splitHostPort('::1')).toEqual({ host: '::1' });
  });

  it('take the credential from --token, then AGENT_GATEWAY_TOKEN, then the generated key in DATA_DIR or server.data_dir', () => {
    writeFileSync(join(temp.dataDir, 'admin-api-key'), 'agk-from-file\n');
    const env = { DATA_DIR: temp.dataDir, AGENT_GATEWAY_TOKEN: 'from-env' };
    expect(settings({ token: 'from-flag' }, env).token).toBe('from-flag');
    expect(settings({}, env).token).toBe('from-env');
    expect(settings({}, { ...env, AGENT_GATEWAY_TOKEN: '' }).token).toBe('agk-from-file');
    writeFileSync(join(temp.dataDir, 'agent-gateway.yaml'), 'server:\n  data_dir: .\n');
    expect(settings({}).token).toBe('agk-from-file');
  });
});
