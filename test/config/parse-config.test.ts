import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/index.js';
import { ConfigError } from '../../src/errors.js';

/** Joins lines so that line numbers in the assertions can be read off the array index + 1. */
const yaml = (...lines: string[]) => `${lines.join('\n')}\n`;

const PROVIDERS = ['providers:', '  up: { type: openai-compatible, base_url: "http://127.0.0.1:9/v1" }'];

function configError(text: string, env: NodeJS.ProcessEnv = {}): string {
  try {
    parseConfigText(text, 'gw.yaml', env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error('expected a config error');
}

describe('config errors are reported as file:line: message', () => {
  it('names an unknown top-level key on its own line', () => {
    const text = yaml('server:', '  port: 8000', 'sevrer:', '  host: 0.0.0.0');
    expect(configError(text)).toBe('gw.yaml:3: unknown key "sevrer"');
  });

  it("names an unknown nested key on its own line, not its parent's", () => {
    const text = yaml(
      'server:',
      '  host: 127.0.0.1',
      '  port: 8000',
      '  prot: 8001',
      'auth:',
      '  api_keys: [abcdefgh]',
    );
    expect(configError(text)).toBe('gw.yaml:4: unknown key "prot" in server');
  });

  it('names each of several unknown keys on its own line', () => {
    const text = yaml('server:', '  hots: 127.0.0.1', '  port: 8000', '  prot: 8001');
    expect(configError(text).split('\n')).toEqual([
      'gw.yaml:2: unknown key "hots" in server',
      'gw.yaml:4: unknown key "prot" in server',
    ]);
  });

  it('names an agui_default_agent that is not an agent', () => {
    const text = yaml(...PROVIDERS, 'agents:', '  - name: a', '    model: up/m', 'gateway:', '  agui_default_agent: b');
    expect(configError(text)).toBe('gw.yaml:7: gateway.agui_default_agent: unknown agent "b"');
  });

  it('names an unknown key inside an agent entry', () => {
    const text = yaml(
      ...PROVIDERS,
      'agents:',
      '  - name: a',
      '    model: up/m',
      '  - name: b',
      '    model: up/m',
      '    temprature: 0.1',
    );
    expect(configError(text)).toBe('gw.yaml:8: unknown key "temprature" in agents.1');
  });

  it('reports wrong types at the value', () => {
    const text = yaml(
      'server:',
      '  host: 127.0.0.1',
      '  port: eighty',
      ...PROVIDERS,
      'agents:',
      '  - name: a',
      '    model: up/m',
      '    temperature: hot',
    );
    expect(configError(text).split('\n')).toEqual([
      'gw.yaml:3: server.port: Invalid input: expected number, received string',
      'gw.yaml:9: agents.0.temperature: Invalid input: expected number, received string',
    ]);
  });

  it('reports an out-of-range value at the value', () => {
    const text = yaml(...PROVIDERS, 'agents:', '  - name: a', '    model: up/m', '    max_iterations: 0');
    expect(configError(text)).toMatch(/^gw\.yaml:6: agents\.0\.max_iterations: /);
  });

  it('reports a missing required key at the entry that lacks it', () => {
    const text = yaml(
      ...PROVIDERS,
      'agents:',
      '  - name: a',
      '    model: up/m',
      '  - name: b',
      '    system_prompt: hi',
    );
    expect(configError(text)).toBe('gw.yaml:6: agents.1.model: is required (expected string)');
  });

  it('explains a bad tool entry by the kind of tool it resembles', () => {
    expect(configError(yaml('tools:', '  - builtin: get_current_time', '  - builtin: get_weather'))).toBe(
      'gw.yaml:3: tools.1.builtin: Invalid option: expected one of "get_current_time"|"http_request"',
    );
    expect(configError(yaml('tools:', '  - name: lookup', '    urll: http://127.0.0.1:9/x')).split('\n')).toEqual([
      'gw.yaml:2: tools.0.url: is required (expected string)',
      'gw.yaml:3: unknown key "urll" in tools.0',
    ]);
  });

  it('reports an unknown provider type at the type', () => {
    expect(
      configError(yaml('providers:', '  up:', '    type: openai-compatibel', '    base_url: http://x/v1')),
    ).toMatch(/^gw\.yaml:3: providers\.up\.type: /);
  });

  it('reports YAML syntax errors with their line', () => {
    expect(configError(yaml('server:', '  host: a', '  host: b'))).toBe('gw.yaml:3: Map keys must be unique');
    expect(configError(yaml('server:', '\thost: a'))).toBe('gw.yaml:2: Tabs are not allowed as indentation');
    expect(configError(yaml('server:', '  host: a', 'agents: [a, b', 'providers: {}'))).toMatch(
      /^gw\.yaml:4: Flow sequence/,
    );
  });

  it('reports a missing environment variable at the line that uses it', () => {
    const text = yaml('auth:', '  api_keys:', '    - ${FIRST_KEY}', '    - ${SECOND_KEY}');
    expect(configError(text, { FIRST_KEY: 'abcdefgh-1' })).toBe(
      'gw.yaml:4: environment variable SECOND_KEY is not set',
    );
    expect(configError(text, { FIRST_KEY: 'abcdefgh-1', SECOND_KEY: '' })).toBe(
      'gw.yaml:4: environment variable SECOND_KEY is not set',
    );
  });

  it('reports an agent naming an unknown provider at its model', () => {
    const text = yaml(...PROVIDERS, 'agents:', '  - name: a', '    model: up/m', '  - name: b', '    model: nowhere/m');
    expect(configError(text)).toBe('gw.yaml:7: agents.1.model: unknown provider "nowhere" (configured: up)');
  });

  it('takes a list of models as the primary and its fallbacks, and reports an unknown provider in it at its entry', () => {
    const list = yaml(...PROVIDERS, 'agents:', '  - name: a', '    model: [up/m, up/backup]');
    expect(parseConfigText(list, 'gw.yaml', {}).agents[0]).toMatchObject({
      model: 'up/m',
      fallback_models: ['up/backup'],
    });
    const unknown = yaml(...PROVIDERS, 'agents:', '  - name: a', '    model:', '      - up/m', '      - nowhere/m');
    expect(configError(unknown)).toBe('gw.yaml:7: agents.0.model.1: unknown provider "nowhere" (configured: up)');
    expect(configError(yaml(...PROVIDERS, 'agents:', '  - name: a', '    model: []'))).toMatch(/agents\.0\.model: /);
    expect(
      configError(yaml(...PROVIDERS, 'agents:', '  - name: a', '    model: up/m', '    fallback_models: [up/b]')),
    ).toMatch(/fallback_models/);
  });

  it('reports an agent naming an unknown tool at that tool', () => {
    const text = yaml(
      ...PROVIDERS,
      'agents:',
      '  - name: a',
      '    model: up/m',
      '    tools:',
      '      - get_current_time',
      '      - get_weather',
    );
    expect(configError(text)).toBe('gw.yaml:8: agents.0.tools.1: unknown tool "get_weather"');
  });

  it('reports a duplicate agent name at the second definition', () => {
    const text = yaml(
      ...PROVIDERS,
      'agents:',
      '  - name: helper',
      '    model: up/m',
      '  - name: other',
      '    model: up/m',
      '  - name: helper',
      '    model: up/m',
    );
    expect(configError(text)).toBe('gw.yaml:8: agents.2.name: duplicate agent name "helper"');
  });

  it('reports every problem, one line each', () => {
    const text = yaml(
      'server:',
      '  port: -1',
      'bogus: 1',
      ...PROVIDERS,
      'agents:',
      '  - name: a',
      '    model: up/m',
      '    tools: [nope]',
    );
    expect(configError(text).split('\n').sort()).toEqual(
      [
        'gw.yaml:2: server.port: Too small: expected number to be >=0',
        'gw.yaml:3: unknown key "bogus"',
        'gw.yaml:9: agents.0.tools.0: unknown tool "nope"',
      ].sort(),
    );
  });

  it('rejects a database_url that is not PostgreSQL instead of silently using SQLite', () => {
    expect(configError(yaml('server:', '  database_url: mysql://db/app'))).toBe(
      'gw.yaml:2: server.database_url: database_url must be a postgres:// or postgresql:// URL (leave it out for SQLite)',
    );
  });

  it('rejects a default token lifetime above the maximum', () => {
    const text = yaml('auth:', '  tokens:', '    default_expires_in_seconds: 7200', '    max_expires_in_seconds: 3600');
    expect(configError(text)).toBe(
      'gw.yaml:3: auth.tokens.default_expires_in_seconds: default_expires_in_seconds must not exceed max_expires_in_seconds',
    );
  });

  it('rejects a document that is not a mapping', () => {
    expect(configError(yaml('- a', '- b'))).toBe('gw.yaml:1: Invalid input: expected object, received array');
  });
});

describe('${VAR} interpolation', () => {
  it('substitutes variables and falls back to ${VAR:-default} when unset or empty', () => {
    const text = yaml(
      'auth:',
      '  api_keys: ["${KEY}", "${OTHER:-fallback-key}", "pre-${EMPTY:-x}-post"]',
      '  jwt: { secret: "${SECRET:-a-default-secret-0123}" }',
    );
    const config = parseConfigText(text, 'gw.yaml', { KEY: 'from-the-env', EMPTY: '' });
    expect(config.auth.api_keys).toEqual(['from-the-env', 'fallback-key', 'pre-x-post']);
    expect(config.auth.jwt?.secret).toBe('a-default-secret-0123');
  });

  it('reads an unquoted result as if it had been typed in place, a quoted one as a string', () => {
    const config = parseConfigText(yaml('server:', '  port: ${PORT:-8080}', '  host: ${HOST:-0.0.0.0}'), 'gw.yaml', {});
    expect(config.server.port).toBe(8080);
    expect(config.server.host).toBe('0.0.0.0');
    expect(parseConfigText(yaml('gateway:', '  agui: ${AGUI}'), 'gw.yaml', { AGUI: 'false' }).gateway.agui).toBe(false);
    expect(configError(yaml('server:', '  port: "${PORT}"'), { PORT: '8080' })).toBe(
      'gw.yaml:2: server.port: Invalid input: expected number, received string',
    );
  });

  it('leaves text without ${...} untouched', () => {
    const config = parseConfigText(
      yaml(...PROVIDERS, 'agents:', '  - name: a', '    model: up/m', '    system_prompt: Costs $5 or {x}'),
      'gw.yaml',
      {},
    );
    expect(config.agents[0].system_prompt).toBe('Costs $5 or {x}');
  });
});

describe('defaults', () => {
  it('an empty file is a valid config with the documented defaults', () => {
    const config = parseConfigText('', 'gw.yaml', {});
    expect(config.server).toMatchObject({
      host: '127.0.0.1',
      port: 8000,
      data_dir: './data',
      log_level: 'info',
      body_limit_bytes: 1_048_576,
      cors: { origins: [] },
      shutdown_timeout_ms: 10_000,
    });
    expect(config.gateway).toEqual({
      enabled: true,
      openai_compat: true,
      agui: true,
      webhooks: true,
      a2a: true,
      mcp: true,
    });
    expect(config.auth).toEqual({
      api_keys: [],
      tokens: { default_expires_in_seconds: 86_400, max_expires_in_seconds: 2_592_000 },
    });
    expect(config.agents).toEqual([]);
  });

  it('fills agent defaults', () => {
    const config = parseConfigText(yaml(...PROVIDERS, 'agents:', '  - name: a', '    model: up/m'), 'gw.yaml', {});
    expect(config.agents[0]).toMatchObject({
      system_prompt: '',
      tools: [],
      temperature: 0.7,
      max_iterations: 10,
      a2a: true,
    });
  });
});
