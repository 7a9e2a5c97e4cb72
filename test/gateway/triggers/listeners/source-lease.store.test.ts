import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../../../src/db/index.js';
import { createSourceLeaseStore, type SourceLeaseStore } from '../../../../src/gateway/triggers/index.js';
import { describeEachDialect, type TestDatabase } from '../../../support/databases.js';

const at = (second: number) => new Date(Date.UTC(2030, 0, 1, 0, 0, second)).toISOString();
const KEY = 'listener:feed';

await describeEachDialect('source lease store', (dialect) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  let leases: SourceLeaseStore;
  beforeAll(async () => {
    testDb = await dialect.create();
    database = await createDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir });
    leases = createSourceLeaseStore(database.db);
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });
  beforeEach(async () => {
    await database.db.deleteFrom('source_leases').execute();
  });

  it('lets one holder in at a time until its lease lapses, then hands the cursor to the next', async () => {
    expect(await leases.acquire({ key: KEY, holder: 'a', now: at(0), until: at(30) })).toEqual({ cursor: null });
    expect(await leases.acquire({ key: KEY, holder: 'b', now: at(10), until: at(40) })).toBeUndefined();
    // The holder itself may take its lease again (a restarted replica with the same id).
    expect(await leases.acquire({ key: KEY, holder: 'a', now: at(10), until: at(40) })).toEqual({ cursor: null });
    expect(await leases.renew({ key: KEY, holder: 'a', now: at(20), until: at(50), cursor: '7' })).toBe(true);
    expect(await leases.renew({ key: KEY, holder: 'b', now: at(20), until: at(50), cursor: '9' })).toBe(false);
    expect(await leases.acquire({ key: KEY, holder: 'b', now: at(49), until: at(79) })).toBeUndefined();

    expect(await leases.acquire({ key: KEY, holder: 'b', now: at(50), until: at(80) })).toEqual({ cursor: '7' });
    expect(await leases.renew({ key: KEY, holder: 'a', now: at(51), until: at(81) })).toBe(false);
    expect(await leases.get(KEY)).toMatchObject({ holder: 'b', expires_at: at(80), cursor: '7' });
  });

  it('frees a released lease at once, keeping the cursor; a release by another holder changes nothing', async () => {
    await leases.acquire({ key: KEY, holder: 'a', now: at(0), until: at(30) });
    await leases.renew({ key: KEY, holder: 'a', now: at(1), until: at(31), cursor: '3' });
    await leases.release({ key: KEY, holder: 'b', now: at(2) });
    expect(await leases.acquire({ key: KEY, holder: 'b', now: at(2), until: at(32) })).toBeUndefined();
    await leases.release({ key: KEY, holder: 'a', now: at(2) });
    expect(await leases.acquire({ key: KEY, holder: 'b', now: at(2), until: at(32) })).toEqual({ cursor: '3' });
  });

  it('gives a lapsed lease to exactly one of many replicas racing for it', async () => {
    await leases.acquire({ key: KEY, holder: 'dead', now: at(0), until: at(30) });
    const holders = Array.from({ length: 12 }, (_, index) => `r${index}`);
    const results = await Promise.all(
      holders.map((holder) => leases.acquire({ key: KEY, holder, now: at(40), until: at(70) })),
    );
    const winners = holders.filter((_, index) => results[index] !== undefined);
    expect(winners).toHaveLength(1);
    expect((await leases.get(KEY))?.holder).toBe(winners[0]);
  });

  it('gives a lease nobody held yet to exactly one of many replicas racing for it', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        leases.acquire({ key: 'listener:new', holder: `r${index}`, now: at(0), until: at(30) }),
      ),
    );
    expect(results.filter((result) => result !== undefined)).toHaveLength(1);
  });
});
