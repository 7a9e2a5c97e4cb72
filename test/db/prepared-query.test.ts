import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDatabase, prepareQuery, type DatabaseHandle } from '../../src/db/index.js';
import { describeEachDialect, type TestDatabase } from '../support/databases.js';

await describeEachDialect('prepared queries', (dialect) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  beforeAll(async () => {
    testDb = await dialect.create();
    database = await createDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir });
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  it('binds each call its own values, keeps constants of the query, and recompiles for another set of keys', async () => {
    const insert = prepareQuery((db, row: { name: string; registered_at?: string }) =>
      db.insertInto('agents').values({ registered_at: '2000-01-01T00:00:00.000Z', ...row }),
    );
    await insert(database.db, { name: 'a' });
    await insert(database.db, { name: 'b', registered_at: '2026-11-22T00:00:00.000Z' });
    await database.db.transaction().execute((trx) => insert(trx, { name: 'c' }));
    const rows = await database.db.selectFrom('agents').selectAll().orderBy('name').execute();
    expect(rows).toEqual([
      { name: 'a', registered_at: '2000-01-01T00:00:00.000Z' },
      { name: 'b', registered_at: '2026-11-22T00:00:00.000Z' },
      { name: 'c', registered_at: '2000-01-01T00:00:00.000Z' },
    ]);
  });

  it('prepares multi-row statements per number of rows', async () => {
    const insert = prepareQuery((db, rows: Array<{ name: string; registered_at: string }>) =>
      db.insertInto('agents').values(rows),
    );
    const rows = (prefix: string, count: number) =>
      Array.from({ length: count }, (_, index) => ({
        name: `${prefix}-${index}`,
        registered_at: `2026-11-22T00:00:0${index}.000Z`,
      }));
    await insert(database.db, rows('two', 2));
    await insert(database.db, rows('three', 3));
    await insert(database.db, rows('again', 2));
    const stored = await database.db
      .selectFrom('agents')
      .selectAll()
      .where('name', 'like', '%-%')
      .orderBy('name')
      .execute();
    expect(stored).toEqual(
      [...rows('again', 2), ...rows('three', 3), ...rows('two', 2)].sort((a, b) => a.name.localeCompare(b.name)),
    );
  });
});
