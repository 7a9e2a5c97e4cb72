import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, prepareQuery, type DatabaseHandle, type Write } from '../../src/db/index.js';
import { createPostgresDatabase, postgresUnavailable } from '../support/databases.js';

const skip = await postgresUnavailable();

const insertAgent = prepareQuery((db, row: { name: string; registered_at: string }) =>
  db.insertInto('agents').values(row),
);
const upsertKv = prepareQuery((db, row: { key: string; value: string; updated_at: string }) =>
  db
    .insertInto('kv')
    .values(row)
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet((eb) => ({ value: eb.ref('excluded.value'), updated_at: eb.ref('excluded.updated_at') })),
    ),
);
const at = '2026-11-24T00:00:00.000Z';
// The shapes of the run end's and the session append's updates (run.store.ts, session.store.ts).
const setValue = prepareQuery((db, row: { key: string; value: string; updated_at: string }) =>
  db.updateTable('kv').set({ value: row.value }).where('key', '=', row.key).where('updated_at', '=', row.updated_at),
);
const addTurns = prepareQuery((db, row: { session_id: string; added: number }) =>
  db
    .updateTable('sessions')
    .set((eb) => ({ message_count: eb('message_count', '+', row.added) }))
    .where('session_id', '=', row.session_id)
    .returning('message_count'),
);

// PostgreSQL's group commit sends the INSERTs of one batch's writes as multi-row INSERTs (db/merged-writes.ts).
describe.skipIf(skip !== undefined)(`PostgreSQL group commit${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function open(): Promise<{ handle: DatabaseHandle; statements: () => string[] }> {
    const database = await createPostgresDatabase();
    cleanups.push(() => database.drop());
    const handle = await createDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
    cleanups.push(() => handle.close());
    // What reaches the server, statement by statement.
    const sent: string[] = [];
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const config = args[0] as string | { text?: string };
      sent.push(typeof config === 'string' ? config : (config.text ?? ''));
      return (query as (...rest: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    cleanups.push(async () => void (pg.Client.prototype.query = query));
    return { handle, statements: () => sent.splice(0) };
  }

  const names = async (handle: DatabaseHandle) =>
    (await handle.db.selectFrom('agents').select('name').orderBy('name').execute()).map((row) => row.name);

  it('commits a burst of writes of two statements each in one statement per table', async () => {
    const { handle, statements } = await open();
    const burst = Array.from({ length: 20 }, (_, index) => `agent-${String(index).padStart(2, '0')}`);
    const results: bigint[] = [];
    await Promise.all(
      burst.map((name) =>
        handle.writes.write(async (db) => {
          results.push((await insertAgent(db, { name, registered_at: at })).numAffectedRows ?? -1n);
          await upsertKv(db, { key: name, value: 'v', updated_at: at });
        }),
      ),
    );
    expect(await names(handle)).toEqual(burst);
    expect(await handle.db.selectFrom('kv').select('key').where('key', 'like', 'agent-%').execute()).toHaveLength(20);
    expect(results).toEqual(burst.map(() => 1n));
    const inserts = statements().filter((text) => text.startsWith('insert'));
    // 4 transactions at once at most: the 20 writes take a handful of batches, never a statement each.
    expect(inserts.length).toBeLessThanOrEqual(2 * 4);
  });

  it('keeps the order of upserts of one key within a batch: the last queued wins', async () => {
    const { handle } = await open();
    const write =
      (value: string): Write =>
      async (db) =>
        void (await upsertKv(db, { key: 'same', value, updated_at: at }));
    await Promise.all(['first', 'second', 'third'].map((value) => handle.writes.write(write(value))));
    const row = await handle.db.selectFrom('kv').select('value').where('key', '=', 'same').executeTakeFirst();
    expect(row?.value).toBe('third');
  });

  it('updates rows by key in one statement, each write told whether its row matched', async () => {
    const { handle, statements } = await open();
    const keys = Array.from({ length: 12 }, (_, index) => `key-${index}`);
    await handle.db
      .insertInto('kv')
      .values(keys.map((key) => ({ key, value: 'old', updated_at: at })))
      .execute();
    statements();
    const matched: number[] = [];
    await Promise.all(
      [...keys, 'key-missing'].map((key, index) =>
        handle.writes.write(async (db) => {
          // One write's row no longer has this updated_at (as a run taken over has another attempt).
          const result = await setValue(db, { key, value: `new-${index}`, updated_at: index === 3 ? 'other' : at });
          matched[index] = Number(result.numAffectedRows);
        }),
      ),
    );
    expect(matched).toEqual([...keys.map((_, index) => (index === 3 ? 0 : 1)), 0]);
    const rows = await handle.db.selectFrom('kv').select(['key', 'value']).where('key', 'like', 'key-%').execute();
    expect(Object.fromEntries(rows.map((row) => [row.key, row.value]))).toEqual(
      Object.fromEntries(keys.map((key, index) => [key, index === 3 ? 'old' : `new-${index}`])),
    );
    expect(statements().filter((text) => text.startsWith('update')).length).toBeLessThanOrEqual(2 * 4);
  });

  it('gives concurrent increments of one row distinct results, in the order queued', async () => {
    const { handle } = await open();
    await handle.db
      .insertInto('sessions')
      .values(
        ['s1', 's2'].map((session_id) => ({
          session_id,
          agent_name: 'helper',
          owner: null,
          created_at: at,
          last_active: at,
          message_count: 0,
        })),
      )
      .execute();
    const counts: Record<string, number[]> = { s1: [], s2: [] };
    await Promise.all(
      ['s1', 's2', 's1', 's2', 's1'].map((session_id) =>
        handle.writes.write(async (db) => {
          const result = await addTurns(db, { session_id, added: 2 });
          counts[session_id].push(Number((result.rows[0] as { message_count: number }).message_count));
        }),
      ),
    );
    expect(counts).toEqual({ s1: [2, 4, 6], s2: [2, 4] });
  });

  it('fails only the write that failed; the others of its batch are committed', async () => {
    const { handle } = await open();
    const insert = (name: string) =>
      handle.writes.write(async (db) => void (await insertAgent(db, { name, registered_at: at })));
    const results = await Promise.allSettled([insert('a'), insert('b'), insert('a'), insert('c')]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(await names(handle)).toEqual(['a', 'b', 'c']);
  });
});
