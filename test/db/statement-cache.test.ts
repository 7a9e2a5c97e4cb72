import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../src/db/index.js';
import { createStatementCache } from '../../src/db/sqlite-statement-cache.js';

describe('SQLite prepared-statement cache', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('hands out one statement per SQL text, evicts the least recently used and never a busy one twice', () => {
    const raw = new SqliteDatabase(':memory:');
    cleanups.push(() => raw.close());
    const cached = createStatementCache(raw, 2);
    raw.exec('create table t (n integer)');
    const insert = cached.prepare('insert into t (n) values (?)');
    expect(cached.prepare('insert into t (n) values (?)')).toBe(insert);
    for (const n of [1, 2, 3]) insert.run(n);

    const select = cached.prepare('select n from t order by n');
    const iterator = select.iterate();
    expect(iterator.next().value).toEqual({ n: 1 });
    const second = cached.prepare('select n from t order by n');
    expect(second).not.toBe(select);
    expect(second.all()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    iterator.return?.();

    cached.prepare('select 1');
    cached.prepare('select 2');
    expect(cached.prepare('insert into t (n) values (?)')).not.toBe(insert);
  });

  it('serves kysely queries, transactions and schema changes through the cache', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ag-stmt-cache-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const handle: DatabaseHandle = await createDatabase({ dataDir });
    cleanups.push(() => handle.close());
    const { db } = handle;
    for (let i = 0; i < 3; i += 1) {
      await db.transaction().execute(async (trx) => {
        await trx.schema.createTable(`cache_probe_${i}`).ifNotExists().addColumn('n', 'integer').execute();
        await trx
          .insertInto(`cache_probe_${i}` as never)
          .values({ n: i })
          .execute();
      });
    }
    const rows = await db
      .selectFrom('cache_probe_2' as never)
      .selectAll()
      .execute();
    expect(rows).toEqual([{ n: 2 }]);
    await expect(
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto('cache_probe_0' as never)
          .values({ n: 10 })
          .execute();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(
      await db
        .selectFrom('cache_probe_0' as never)
        .selectAll()
        .execute(),
    ).toEqual([{ n: 0 }]);
    expect(await handle.ping()).toBe(true);
  });
});
