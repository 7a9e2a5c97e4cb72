import { spawn } from 'node:child_process';
import { Migrator, sql, type Migration } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { createDatabase, migrateToLatest, type DatabaseHandle } from '../../src/db/index.js';
import { MIGRATIONS } from '../../src/db/migrations/index.js';
import { describeEachDialect, type TestDatabase } from '../support/databases.js';

const TABLES = ['access_tokens', 'agents', 'kv'];

/** Runs createDatabase in a separate process, as a second replica or a second start would. */
function openInChildProcess(database: TestDatabase): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/db/open-database.fixture.ts', database.dataDir, database.databaseUrl ?? ''],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', () => resolve(output.trim()));
  });
}

await describeEachDialect('migrations', (dialect) => {
  const opened: DatabaseHandle[] = [];
  const created: TestDatabase[] = [];
  afterEach(async () => {
    for (const handle of opened.splice(0)) await handle.close();
    for (const database of created.splice(0)) await database.drop();
  });

  async function open(database: TestDatabase): Promise<DatabaseHandle> {
    const handle = await createDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
    opened.push(handle);
    return handle;
  }

  async function fresh(): Promise<TestDatabase> {
    const database = await dialect.create();
    created.push(database);
    return database;
  }

  const applied = async (handle: DatabaseHandle) =>
    (
      await handle.db
        .selectFrom('kysely_migration' as never)
        .select(sql<string>`name`.as('name'))
        .execute()
    ).map((row) => row.name);

  it('create every table on a fresh database and record each migration once', async () => {
    const handle = await open(await fresh());
    expect(handle.engine).toBe(dialect.name);
    const tables = (await handle.db.introspection.getTables()).map((table) => table.name);
    expect(tables).toEqual(expect.arrayContaining(TABLES));
    expect(await applied(handle)).toEqual(Object.keys(MIGRATIONS));
  });

  it('are idempotent: running them again, or opening the database again, changes nothing and keeps data', async () => {
    const database = await fresh();
    const first = await open(database);
    await first.db.insertInto('kv').values({ key: 'k', value: 'v', updated_at: '2026-01-01T00:00:00.000Z' }).execute();
    await migrateToLatest(first.db);
    await migrateToLatest(first.db);
    // Closed first: a SQLite data folder has one owner at a time (test/db/data-dir-lock.test.ts).
    opened.splice(opened.indexOf(first), 1);
    await first.close();
    const second = await open(database);
    expect(await applied(second)).toEqual(Object.keys(MIGRATIONS));
    expect(await second.db.selectFrom('kv').selectAll().execute()).toEqual([
      { key: 'k', value: 'v', updated_at: '2026-01-01T00:00:00.000Z' },
    ]);
  });

  it('two processes starting at once on the same database both come up (SQLite: or one is refused the folder)', async () => {
    const database = await fresh();
    const outcomes = await Promise.all([openInChildProcess(database), openInChildProcess(database)]);
    if (dialect.name === 'sqlite') {
      expect(outcomes).toContain('opened');
      for (const outcome of outcomes) expect(outcome).toMatch(/^(opened|in use)$/);
    } else expect(outcomes).toEqual(['opened', 'opened']);
    expect(await applied(await open(database))).toEqual(Object.keys(MIGRATIONS));
  });

  it('run in one transaction: a failing migration leaves nothing behind', async () => {
    const handle = await open(await fresh());
    const broken: Migration = {
      async up(db) {
        await db.schema.createTable('half_done').addColumn('id', 'text').execute();
        await db
          .insertInto('kv' as never)
          .values({ key: 'half', value: 'done', updated_at: 'x' } as never)
          .execute();
        throw new Error('boom');
      },
    };
    const migrator = new Migrator({
      db: handle.db,
      provider: { getMigrations: async () => ({ ...MIGRATIONS, '9999-12-31-broken': broken }) },
    });
    const { error } = await migrator.migrateToLatest();
    expect((error as Error).message).toBe('boom');
    expect((await handle.db.introspection.getTables()).map((table) => table.name)).not.toContain('half_done');
    expect(await handle.db.selectFrom('kv').selectAll().execute()).toEqual([]);
    expect(await applied(handle)).toEqual(Object.keys(MIGRATIONS));
  });

  it('ping reports an unreachable database as false instead of throwing', async () => {
    const handle = await createDatabase({ databaseUrl: (await fresh()).databaseUrl, dataDir: created[0].dataDir });
    expect(await handle.ping()).toBe(true);
    await handle.close();
    expect(await handle.ping()).toBe(false);
  });

  if (dialect.name === 'sqlite') {
    it('keep SQLite in WAL mode in <data_dir>/agent-gateway.sqlite', async () => {
      const database = await fresh();
      const handle = await open(database);
      expect(handle.location).toBe(`${database.dataDir}/agent-gateway.sqlite`);
      const { rows } = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(handle.db);
      expect(rows[0].journal_mode).toBe('wal');
    });
  } else {
    it('hide the PostgreSQL password in the location it reports', async () => {
      const database = await fresh();
      const url = new URL(database.databaseUrl!);
      url.password = 'hunter2';
      // The loopback server trusts local connections, so the password is ignored when connecting.
      const handle = await open({ ...database, databaseUrl: url.toString() });
      expect(handle.location).not.toContain('hunter2');
      expect(handle.location).toContain(':***@127.0.0.1');
    });
  }
});
