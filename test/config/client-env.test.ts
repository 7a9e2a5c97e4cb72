import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveClientSettings } from '../../src/config/index.js';
import { tempDataDir } from '../support/databases.js';

let temp: { dataDir: string; remove(): void };
beforeEach(() => {
  temp = tempDataDir();
});
afterEach(() => temp.remove());

describe('CLI client settings', () => {
  it('default to http://localhost:8000', () => {
    expect(resolveClientSettings({}, { DATA_DIR: temp.dataDir })).toEqual({
      baseUrl: 'http://localhost:8000',
      token: undefined,
    });
  });

  it('build the base URL from host and port, bracketing IPv6, or take a full URL as it is', () => {
    expect(resolveClientSettings({ host: '127.0.0.1', port: '9000' }, {}).baseUrl).toBe('http://127.0.0.1:9000');
    expect(resolveClientSettings({ host: '::1', port: 9000 }, {}).baseUrl).toBe('http://[::1]:9000');
    expect(resolveClientSettings({ host: 'https://gw.example.com/', port: '9000' }, {}).baseUrl).toBe(
      'https://gw.example.com',
    );
  });

  it('take the credential from --token, then AGENT_GATEWAY_TOKEN, then the generated key in DATA_DIR', () => {
    writeFileSync(join(temp.dataDir, 'admin-api-key'), 'agk-from-file\n');
    const env = { DATA_DIR: temp.dataDir, AGENT_GATEWAY_TOKEN: 'from-env' };
    expect(resolveClientSettings({ token: 'from-flag' }, env).token).toBe('from-flag');
    expect(resolveClientSettings({}, env).token).toBe('from-env');
    expect(resolveClientSettings({}, { ...env, AGENT_GATEWAY_TOKEN: '' }).token).toBe('agk-from-file');
  });
});
