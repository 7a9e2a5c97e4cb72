import { Migrator, type Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSessionStore } from '../../src/agents/index.js';
import { createDatabase, migrateToLatest, type DatabaseHandle } from '../../src/db/index.js';
import { MIGRATIONS } from '../../src/db/migrations/index.js';
import { describeEachDialect, type TestDatabase } from '../support/databases.js';

const BEFORE = '2026-11-29-401-usage-mission';

await describeEachDialect('the session-requested migration', (dialect) => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;
  beforeAll(async () => {
    testDb = await dialect.create();
    handle = await createDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir });
  });
  afterAll(async () => {
    await handle.close();
    await testDb.drop();
  });

  it('keeps the sessions of a database from before it listed as active, and goes back down', async () => {
    const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => MIGRATIONS } });
    expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
    const db = handle.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const at = '2030-01-01T00:00:00.000Z';
    await db
      .insertInto('sessions')
      .values({ session_id: 'ses_old', agent_name: 'helper', owner: 'anonymous', created_at: at, last_active: at })
      .execute();
    await migrateToLatest(handle.db);
    const store = createSessionStore(handle.db);
    expect((await store.listActive(at)).map((session) => session.session_id)).toEqual(['ses_old']);
    await store.open('ses_new', 'helper', 'anonymous', at, false);
    expect(await store.countActive(at)).toBe(1);

    expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
    expect((await db.selectFrom('sessions').select('session_id').orderBy('session_id').execute()).length).toBe(2);
    await migrateToLatest(handle.db);
  });
});
