import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { VERSION } from '../../src/app.js';
import { BASE_YAML, startTestApp, TEST_API_KEY, type TestApp } from '../support/app.js';
import { tempDataDir } from '../support/databases.js';
import { runCli } from './run-cli.js';

let app: TestApp;
let client: string[];
let emptyDataDir: { dataDir: string; remove(): void };
/** No key file in DATA_DIR, so the CLI only has the credentials a test gives it. */
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  app = await startTestApp(BASE_YAML);
  client = ['--host', '127.0.0.1', '--port', new URL(app.url).port, '--token', TEST_API_KEY];
  emptyDataDir = tempDataDir();
  env = { DATA_DIR: emptyDataDir.dataDir };
});
afterAll(async () => {
  await app.stop();
  emptyDataDir.remove();
});

const tokens = (...args: string[]) => runCli(['tokens', ...args, ...client], env);

/** A loopback port that nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe.concurrent('agent-gateway tokens', () => {
  it('create prints the token once, with a reminder on stderr', async ({ expect }) => {
    const result = await tokens('create', '--agent', 'helper');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^token:\s+sat-[0-9a-f]{64}$/m);
    expect(result.stdout).toMatch(/^scopes:\s+chat$/m);
    expect(result.stderr).toBe('Store the token now: it is not shown again.\n');
  });

  it('create --json takes scopes, lifetime and single use', async ({ expect }) => {
    const result = await tokens(
      'create',
      '--agent',
      'other',
      '--scopes',
      'chat, dream',
      '--expires-in',
      '120',
      '--single-use',
      '--json',
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const created = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(created).toMatchObject({
      agent_name: 'other',
      scopes: ['chat', 'dream'],
      single_use: true,
      status: 'active',
    });
    expect(Date.parse(created.expires_at as string) - Date.parse(created.created_at as string)).toBe(120_000);
  });

  it('list prints a table and --json an array, filtered by --agent', async ({ expect }) => {
    const { token_id } = await app.tokens.create({ agent_name: 'other' });
    const table = await tokens('list');
    expect(table.code).toBe(0);
    const [header, ...rows] = table.stdout.trimEnd().split('\n');
    expect(header.split(/\s+/)).toEqual([
      'TOKEN_ID',
      'AGENT_NAME',
      'SCOPES',
      'STATUS',
      'SINGLE_USE',
      'EXPIRES_AT',
      'LAST_USED_AT',
      'TOKEN_SUFFIX',
    ]);
    expect(rows.some((row) => row.startsWith(token_id))).toBe(true);
    const json = await tokens('list', '--agent', 'other', '--json');
    const listed = JSON.parse(json.stdout) as { token_id: string; agent_name: string }[];
    expect(listed.map((row) => row.token_id)).toContain(token_id);
    expect(new Set(listed.map((row) => row.agent_name))).toEqual(new Set(['other']));
    expect(json.stdout).not.toMatch(/sat-[0-9a-f]{64}|token_hash/);
  });

  it('revoke and delete', async ({ expect }) => {
    const { token_id } = await app.tokens.create({ agent_name: 'helper' });
    const revoked = await tokens('revoke', token_id, '--json');
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ token_id, status: 'revoked' });
    const deleted = await tokens('delete', token_id);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toMatch(new RegExp(`^token_id:\\s+${token_id}\\ndeleted:\\s+true\\n$`));
    expect(await app.tokens.list()).not.toContainEqual(expect.objectContaining({ token_id }));
  });

  it('a server error is one line on stderr and a non-zero exit', async ({ expect }) => {
    const result = await tokens('revoke', 'tok_000000000000000000000000');
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: 404 token_not_found: No access token with id "tok_000000000000000000000000"\n',
    });
    const invalid = await tokens('create', '--agent', 'nobody');
    expect(invalid).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'error: 400 unknown_agent: agent_name: no agent named "nobody" is registered\n',
    });
  });

  it('wrong or missing credentials are one line too', async ({ expect }) => {
    const wrong = await runCli(
      ['tokens', 'list', '--host', '127.0.0.1', '--port', new URL(app.url).port, '--token', 'wrong-key-123'],
      env,
    );
    expect(wrong).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'error: 401 invalid_credentials: Invalid API key or token\n',
    });
    const missing = await runCli(['tokens', 'list', '--host', '127.0.0.1', '--port', new URL(app.url).port], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: 401 missing_credentials: .*\n$/);
  });

  it('takes the token from AGENT_GATEWAY_TOKEN', async ({ expect }) => {
    const result = await runCli(['tokens', 'list', '--json', '--host', '127.0.0.1', '--port', new URL(app.url).port], {
      ...env,
      AGENT_GATEWAY_TOKEN: TEST_API_KEY,
    });
    expect(result.code).toBe(0);
    expect(Array.isArray(JSON.parse(result.stdout))).toBe(true);
  });

  it('an unreachable server is one line', async ({ expect }) => {
    const port = await closedPort();
    const result = await runCli(
      ['tokens', 'list', '--host', '127.0.0.1', '--port', String(port), '--token', TEST_API_KEY],
      env,
    );
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: cannot reach http://127.0.0.1:${port}: ECONNREFUSED\n`,
    });
  });

  it('bad arguments exit non-zero without a stack trace', async ({ expect }) => {
    const noAgent = await tokens('create');
    expect(noAgent.code).not.toBe(0);
    expect(noAgent.stderr).toContain("required option '--agent <name>' not specified");
    const badLifetime = await tokens('create', '--agent', 'helper', '--expires-in', 'soon');
    expect(badLifetime.code).not.toBe(0);
    expect(badLifetime.stderr).toContain('must be a positive integer');
    for (const result of [noAgent, badLifetime]) expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe.concurrent('--help and --version', () => {
  it.for(['', 'serve', 'tokens', 'tokens create', 'tokens list', 'tokens revoke', 'tokens delete'])(
    'agent-gateway %s --help',
    async (command, { expect }) => {
      const result = await runCli([...command.split(' ').filter(Boolean), '--help']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`Usage: ${['agent-gateway', command].filter(Boolean).join(' ')} `);
      expect(result.stderr).toBe('');
    },
  );

  it('--version prints the package version', async ({ expect }) => {
    expect(await runCli(['--version'])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });
});
