import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTokenService, createTokenStore, hashToken, type TokenStore } from '../../src/auth/index.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/index.js';
import { describeEachDialect, type TestDatabase } from '../support/databases.js';

const T0 = '2026-03-01T10:00:00.000Z';
const LATER = '2026-03-01T10:05:00.000Z';
const EXPIRY = '2026-03-02T10:00:00.000Z';

const newRow = (id: string, overrides: Partial<Parameters<TokenStore['insert']>[0]> = {}) => ({
  token_id: id,
  token_hash: hashToken(`sat-${id}`),
  token_suffix: id.slice(-4),
  agent_name: 'helper',
  scopes: ['chat', 'dream'],
  single_use: false,
  created_at: T0,
  expires_at: EXPIRY,
  max_cost_usd: null,
  ...overrides,
});

await describeEachDialect('token store', (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let store: TokenStore;
  beforeAll(async () => {
    database = await dialect.create();
    handle = await createDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
    store = createTokenStore(handle.db);
  });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  it('round-trips a row with the same types on both engines', async () => {
    await store.insert(newRow('tok_roundtrip1', { max_cost_usd: 2.5, single_use: true }));
    expect(await store.findById('tok_roundtrip1')).toEqual({
      token_id: 'tok_roundtrip1',
      token_hash: hashToken('sat-tok_roundtrip1'),
      token_suffix: 'rip1',
      agent_name: 'helper',
      scopes: ['chat', 'dream'],
      single_use: true,
      status: 'active',
      created_at: T0,
      expires_at: EXPIRY,
      last_used_at: null,
      use_count: 0,
      max_cost_usd: 2.5,
      a2a_restrictions: null,
      requests_per_minute: null,
      tokens_per_minute: null,
    });
    expect((await store.findByHash(hashToken('sat-tok_roundtrip1')))?.token_id).toBe('tok_roundtrip1');
    const a2a = { skills: ['summarizing'], methods: ['SendMessage', 'GetTask'] };
    await store.insert(newRow('tok_roundtrip2', { a2a_restrictions: a2a }));
    expect((await store.findById('tok_roundtrip2'))?.a2a_restrictions).toEqual(a2a);
    expect(await store.findById('tok_missing')).toBeUndefined();
    expect(await store.findByHash(hashToken('sat-nothing'))).toBeUndefined();
  });

  it('lists newest first and filters by agent', async () => {
    await store.insert(newRow('tok_list_a', { agent_name: 'lister', created_at: '2026-03-01T09:00:00.000Z' }));
    await store.insert(newRow('tok_list_b', { agent_name: 'lister', created_at: '2026-03-01T11:00:00.000Z' }));
    await store.insert(newRow('tok_list_c', { agent_name: 'someone-else' }));
    expect((await store.list({ agentName: 'lister' })).map((row) => row.token_id)).toEqual([
      'tok_list_b',
      'tok_list_a',
    ]);
    expect((await store.list({})).map((row) => row.token_id)).toEqual(
      expect.arrayContaining(['tok_list_a', 'tok_list_b', 'tok_list_c']),
    );
    expect(await store.list({ agentName: 'nobody' })).toEqual([]);
  });

  it('consume counts uses of a reusable token and keeps it active', async () => {
    await store.insert(newRow('tok_reuse'));
    expect(await store.consume('tok_reuse', LATER)).toMatchObject({
      status: 'active',
      use_count: 1,
      last_used_at: LATER,
    });
    expect(await store.consume('tok_reuse', LATER, 'helper')).toMatchObject({ status: 'active', use_count: 2 });
  });

  it('consume uses a single-use token up exactly once', async () => {
    await store.insert(newRow('tok_once', { single_use: true }));
    expect(await store.consume('tok_once', LATER)).toMatchObject({ status: 'used', use_count: 1 });
    expect(await store.consume('tok_once', LATER)).toBeUndefined();
    expect((await store.findById('tok_once'))?.use_count).toBe(1);
  });

  it('consume refuses an expired token, another agent and an unknown id', async () => {
    await store.insert(newRow('tok_refuse'));
    expect(await store.consume('tok_refuse', EXPIRY)).toBeUndefined();
    expect(await store.consume('tok_refuse', LATER, 'other')).toBeUndefined();
    expect(await store.consume('tok_unknown', LATER)).toBeUndefined();
    expect((await store.findById('tok_refuse'))?.use_count).toBe(0);
  });

  it('revoke keeps the record; delete removes it', async () => {
    await store.insert(newRow('tok_gone'));
    expect(await store.revoke('tok_gone')).toMatchObject({ token_id: 'tok_gone', status: 'revoked' });
    expect(await store.consume('tok_gone', LATER)).toBeUndefined();
    expect(await store.revoke('tok_nope')).toBeUndefined();
    expect(await store.delete('tok_gone')).toBe(true);
    expect(await store.findById('tok_gone')).toBeUndefined();
    expect(await store.delete('tok_gone')).toBe(false);
  });

  it('the service stores only the hash and timestamps as ISO 8601 UTC strings', async () => {
    const tokens = createTokenService({
      store,
      config: { default_expires_in_seconds: 3600, max_expires_in_seconds: 7200 },
      agentExists: () => true,
      now: () => new Date(T0),
    });
    const created = await tokens.create({ agent_name: 'svc' });
    expect(created.token).toMatch(/^sat-[0-9a-f]{64}$/);
    const raw = await store.findById(created.token_id);
    expect(raw).toMatchObject({
      token_hash: hashToken(created.token),
      token_suffix: created.token.slice(-4),
      created_at: T0,
      expires_at: '2026-03-01T11:00:00.000Z',
    });
    expect(JSON.stringify(raw)).not.toContain(created.token.slice(4, -4));
    expect(await tokens.get(created.token_id)).toMatchObject({
      single_use: false,
      scopes: ['chat'],
      use_count: 0,
      status: 'active',
    });
  });
});
