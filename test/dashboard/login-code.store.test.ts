import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLoginCodeStore, type LoginCodeStore } from '../../src/dashboard/index.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/index.js';
import { describeEachDialect, type TestDatabase } from '../support/databases.js';

const KEY = 'operator-key-0123456789';
const TTL_MS = 120_000;

await describeEachDialect('dashboard login codes', (dialect) => {
  let testDb: TestDatabase;
  /** Two replicas: two handles on one database, each with its own store. */
  let replicas: DatabaseHandle[];
  let clock = Date.parse('2026-03-01T10:00:00.000Z');
  let a: LoginCodeStore;
  let b: LoginCodeStore;
  beforeAll(async () => {
    testDb = await dialect.create();
    const open = () => createDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir, ownDataDir: false });
    replicas = [await open(), await open()];
    [a, b] = replicas.map((database) => createLoginCodeStore(database.db, { ttlMs: TTL_MS, now: () => clock }));
  });
  afterAll(async () => {
    for (const database of replicas ?? []) await database.close();
    await testDb?.drop();
  });

  it('a code issued on one replica signs in once on another; the row holds neither the code nor the key', async () => {
    const { code, expiresAt } = await a.issue(KEY);
    expect(expiresAt.getTime()).toBe(clock + TTL_MS);
    const rows = await replicas[0].db.selectFrom('ui_login_codes').selectAll().execute();
    expect(rows).toEqual([expect.objectContaining({ code_hash: createHash('sha256').update(code).digest('hex') })]);
    expect(JSON.stringify(rows)).not.toContain(code);
    expect(JSON.stringify(rows)).not.toContain(KEY);
    expect(await b.redeem(code)).toBe(KEY);
    expect(await a.redeem(code)).toBeUndefined();
    expect(await b.redeem(code)).toBeUndefined();
  });

  it('two replicas redeeming one code at once: exactly one gets the credential', async () => {
    const { code } = await a.issue(KEY);
    const results = await Promise.all([a.redeem(code), b.redeem(code), a.redeem(code), b.redeem(code)]);
    expect(results.filter((result) => result === KEY)).toHaveLength(1);
  });

  it('a code expires after its lifetime and is swept when the next one is issued', async () => {
    const { code: late } = await a.issue(KEY);
    const { code: onTime } = await a.issue(KEY);
    clock += TTL_MS - 1;
    expect(await b.redeem(onTime)).toBe(KEY);
    clock += 1;
    expect(await b.redeem(late)).toBeUndefined();
    const { code: expired } = await a.issue(KEY);
    clock += TTL_MS;
    await a.issue(KEY);
    const left = await replicas[1].db.selectFrom('ui_login_codes').select('code_hash').execute();
    expect(left.map((row) => row.code_hash)).not.toContain(createHash('sha256').update(expired).digest('hex'));
    expect(left).toHaveLength(1);
  });

  it('an unknown code gives nothing', async () => {
    expect(await a.redeem('no-such-code')).toBeUndefined();
  });
});
