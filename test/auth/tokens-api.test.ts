import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/auth/index.js';
import { BASE_YAML, startTestApp, TEST_API_KEY, TEST_JWT_SECRET, type TestApp } from '../support/app.js';
import { signJwt } from './auth-test-server.js';

interface ErrorBody {
  error: { type: string; code: string; message: string; param?: string };
}

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp(BASE_YAML, { listen: false });
});
afterAll(() => app.stop());

async function api<T = Record<string, unknown>>(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = { 'x-api-key': TEST_API_KEY },
) {
  const response = await app.inject(path, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

const create = (body: unknown) => api<Record<string, unknown> & ErrorBody>('POST', '/gateway/tokens', body);

const LIST_FIELDS = [
  'a2a',
  'agent_name',
  'created_at',
  'expires_at',
  'last_used_at',
  'max_cost_usd',
  'rate_limit',
  'scopes',
  'single_use',
  'status',
  'token_id',
  'token_suffix',
  'use_count',
];

describe('POST /gateway/tokens', () => {
  it('applies the defaults: scopes ["chat"], 86400 s, reusable', async () => {
    const { status, body } = await create({ agent_name: 'helper' });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      agent_name: 'helper',
      scopes: ['chat'],
      single_use: false,
      status: 'active',
      last_used_at: null,
      use_count: 0,
      max_cost_usd: null,
    });
    expect(body.token).toMatch(/^sat-[0-9a-f]{64}$/);
    expect(body.token_id).toMatch(/^tok_[0-9a-f]{24}$/);
    expect(body.token_suffix).toBe((body.token as string).slice(-4));
    expect(body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(body.expires_at as string) - Date.parse(body.created_at as string)).toBe(86_400_000);
  });

  it("takes every field, and stores the spec's dream scope, which grants nothing", async () => {
    const { status, body } = await create({
      agent_name: 'other',
      scopes: ['chat', 'dream', 'chat'],
      expires_in_seconds: 60,
      single_use: true,
      max_cost_usd: 0.5,
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({ agent_name: 'other', scopes: ['chat', 'dream'], single_use: true, max_cost_usd: 0.5 });
    expect(Date.parse(body.expires_at as string) - Date.parse(body.created_at as string)).toBe(60_000);
  });

  it('accepts a lifetime of exactly the maximum (30 days)', async () => {
    expect((await create({ agent_name: 'helper', expires_in_seconds: 30 * 86_400 })).status).toBe(201);
  });

  it.each([
    [{ agent_name: 'nobody' }, 'unknown_agent', 'agent_name'],
    [{}, 'invalid_request', 'agent_name'],
    [{ agent_name: '' }, 'invalid_request', 'agent_name'],
    [{ agent_name: 'helper', expires_in_seconds: 0 }, 'invalid_request', 'expires_in_seconds'],
    [{ agent_name: 'helper', expires_in_seconds: -60 }, 'invalid_request', 'expires_in_seconds'],
    [{ agent_name: 'helper', expires_in_seconds: 1.5 }, 'invalid_request', 'expires_in_seconds'],
    [{ agent_name: 'helper', expires_in_seconds: '60' }, 'invalid_request', 'expires_in_seconds'],
    [{ agent_name: 'helper', expires_in_seconds: 30 * 86_400 + 1 }, 'invalid_expires_in_seconds', 'expires_in_seconds'],
    [{ agent_name: 'helper', scopes: [] }, 'invalid_request', 'scopes'],
    [{ agent_name: 'helper', scopes: 'chat' }, 'invalid_request', 'scopes'],
    [{ agent_name: 'helper', scopes: ['chat', 'chta'] }, 'invalid_request', 'scopes.1'],
    [{ agent_name: 'helper', scopes: ['admin'] }, 'invalid_request', 'scopes.0'],
    [{ agent_name: 'helper', single_use: 'yes' }, 'invalid_request', 'single_use'],
    [{ agent_name: 'helper', scope: ['chat'] }, 'invalid_request', 'scope'],
  ])('rejects %j with 400 %s naming %s', async (input, code, field) => {
    const { status, body } = await create(input);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ type: 'invalid_request_error', code, param: field });
    expect(body.error.message).toContain(field);
  });

  it('refuses an unknown scope, saying which scopes exist', async () => {
    const { status, body } = await create({ agent_name: 'helper', scopes: ['chat', 'chta'] });
    expect(status).toBe(400);
    expect(body.error.message).toBe(
      'body.scopes.1: unknown scope "chta": known scopes are chat, a2a, tools, mcp, shared_sessions, dream',
    );
  });

  it('rejects a body that is not an object', async () => {
    const { status, body } = await create(['helper']);
    expect(status).toBe(400);
    expect(body.error.message).toMatch(/^body: /);
  });
});

describe('GET /gateway/tokens', () => {
  it('lists tokens with their fields, never the hash or the plaintext', async () => {
    const created = (await create({ agent_name: 'helper' })).body;
    const { status, body } = await api<Record<string, unknown>[]>('GET', '/gateway/tokens');
    expect(status).toBe(200);
    const listed = body.find((row) => row.token_id === created.token_id)!;
    expect(Object.keys(listed).sort()).toEqual(LIST_FIELDS);
    expect(listed).toEqual({ ...created, token: undefined, token_hash: undefined });
    const text = JSON.stringify(body);
    expect(text).not.toContain(created.token as string);
    expect(text).not.toContain(hashToken(created.token as string));
  });

  it('filters by agent_name', async () => {
    await create({ agent_name: 'other' });
    const { body } = await api<{ agent_name: string }[]>('GET', '/gateway/tokens?agent_name=other');
    expect(body.length).toBeGreaterThan(0);
    expect(new Set(body.map((row) => row.agent_name))).toEqual(new Set(['other']));
    expect((await api<unknown[]>('GET', '/gateway/tokens?agent_name=nobody')).body).toEqual([]);
  });

  it('rejects an unknown filter naming it', async () => {
    const { status, body } = await api<ErrorBody>('GET', '/gateway/tokens?agent=other');
    expect(status).toBe(400);
    expect(body.error).toMatchObject({
      code: 'invalid_request',
      param: 'agent',
      message: 'querystring.agent: unknown field',
    });
  });

  it('shows expired tokens as expired', async () => {
    const { token_id } = (await create({ agent_name: 'helper' })).body;
    await app.database.db
      .updateTable('access_tokens')
      .set({ expires_at: '2020-01-01T00:00:00.000Z' })
      .where('token_id', '=', token_id as string)
      .execute();
    expect((await api('GET', `/gateway/tokens/${String(token_id)}`)).body.status).toBe('expired');
  });

  it('is reachable with a JWT too', async () => {
    const jwt = await signJwt({ secret: TEST_JWT_SECRET });
    expect((await api('GET', '/gateway/tokens', undefined, { authorization: `Bearer ${jwt}` })).status).toBe(200);
  });
});

describe('revoke and delete', () => {
  it('revoke disables the token and keeps its record', async () => {
    const { token, token_id } = (await create({ agent_name: 'helper' })).body;
    const revoked = await api('POST', `/gateway/tokens/${String(token_id)}/revoke`);
    expect(revoked).toMatchObject({ status: 200, body: { token_id, status: 'revoked', agent_name: 'helper' } });
    expect(revoked.body).not.toHaveProperty('token');
    const listed = (await api<{ token_id: string; status: string }[]>('GET', '/gateway/tokens')).body.find(
      (row) => row.token_id === token_id,
    );
    expect(listed?.status).toBe('revoked');
    const used = await api<ErrorBody>('GET', '/gateway/tokens', undefined, {
      authorization: `Bearer ${String(token)}`,
    });
    expect(used).toMatchObject({ status: 401, body: { error: { code: 'token_revoked' } } });
    // Revoking again is harmless, also with the JSON content type some clients always send.
    expect(
      (
        await api('POST', `/gateway/tokens/${String(token_id)}/revoke`, undefined, {
          'x-api-key': TEST_API_KEY,
          'content-type': 'application/json',
        })
      ).status,
    ).toBe(200);
  });

  it('delete removes the token permanently', async () => {
    const { token, token_id } = (await create({ agent_name: 'helper' })).body;
    expect(await api('DELETE', `/gateway/tokens/${String(token_id)}`)).toEqual({
      status: 200,
      body: { token_id, deleted: true },
    });
    expect((await api<{ token_id: string }[]>('GET', '/gateway/tokens')).body.map((row) => row.token_id)).not.toContain(
      token_id,
    );
    const used = await api<ErrorBody>('GET', '/gateway/tokens', undefined, {
      authorization: `Bearer ${String(token)}`,
    });
    expect(used).toMatchObject({ status: 401, body: { error: { code: 'invalid_token' } } });
  });

  it('a revoked token can still be deleted', async () => {
    const { token_id } = (await create({ agent_name: 'helper' })).body;
    await api('POST', `/gateway/tokens/${String(token_id)}/revoke`);
    expect((await api('DELETE', `/gateway/tokens/${String(token_id)}`)).status).toBe(200);
  });

  it.each([
    ['GET', '/gateway/tokens/tok_000000000000000000000000'],
    ['POST', '/gateway/tokens/tok_000000000000000000000000/revoke'],
    ['DELETE', '/gateway/tokens/tok_000000000000000000000000'],
  ])('%s %s on an unknown id: 404 token_not_found', async (method, path) => {
    expect(await api(method, path)).toEqual({
      status: 404,
      body: {
        error: {
          type: 'not_found_error',
          code: 'token_not_found',
          message: 'No access token with id "tok_000000000000000000000000"',
        },
      },
    });
  });
});

describe('secrets at rest and in logs', () => {
  function filesUnder(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
    );
  }

  it('no plaintext token is in any file of the data dir (SQLite, WAL) nor in the logs', async () => {
    const tokens: string[] = [];
    for (const single_use of [false, true])
      tokens.push((await create({ agent_name: 'helper', single_use })).body.token as string);
    for (const token of tokens) await api('GET', '/gateway/tokens', undefined, { authorization: `Bearer ${token}` });
    const files = filesUnder(app.dataDir);
    expect(files.some((file) => file.endsWith('.sqlite-wal'))).toBe(true);
    for (const file of files) {
      const bytes = readFileSync(file);
      for (const token of tokens) {
        expect(bytes.includes(token), `${token} in ${file}`).toBe(false);
        expect(bytes.includes(token.slice(4, -4)), `the secret part of a token in ${file}`).toBe(false);
      }
    }
    // The hash is what is stored.
    expect(files.some((file) => readFileSync(file).includes(hashToken(tokens[0])))).toBe(true);
    for (const token of tokens) expect(app.logs.text).not.toContain(token.slice(4, -4));
  });

  it('the logs never carry the API key, a JWT or an Authorization header', async () => {
    const jwt = await signJwt({ secret: TEST_JWT_SECRET });
    await api('GET', '/gateway/tokens', undefined, { authorization: `Bearer ${jwt}` });
    await api('GET', '/gateway/tokens', undefined, { cookie: `service_auth=${TEST_API_KEY}` });
    await api('GET', '/gateway/tokens', undefined, { 'x-api-key': `${TEST_API_KEY}-wrong` });
    expect(app.logs.lines.length).toBeGreaterThan(10);
    for (const secret of [TEST_API_KEY, TEST_JWT_SECRET, jwt]) expect(app.logs.text).not.toContain(secret);
    expect(app.logs.text.toLowerCase()).not.toMatch(/authorization|x-api-key|service_auth/);
  });
});
