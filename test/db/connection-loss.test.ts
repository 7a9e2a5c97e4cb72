import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, createGroupCommit, type Database, type DatabaseHandle } from '../../src/db/index.js';
import { DatabaseUnavailableError } from '../../src/errors.js';
import {
  createPostgresDatabase,
  POSTGRES_ADMIN_URL,
  postgresUnavailable,
  type TestDatabase,
} from '../support/databases.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

const skip = await postgresUnavailable();

/** Every connection to `database` but the caller's own ended by the server, as a failover or an operator does. */
async function terminateBackends(database: string): Promise<number> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    const { rowCount } = await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [database],
    );
    return rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

const agent = (name: string) => ({ name, registered_at: '2026-11-29T00:00:00.000Z' });

describe.skipIf(skip !== undefined)(`PostgreSQL connections that fail${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let handle: DatabaseHandle;
  const connectionErrors: Error[] = [];

  beforeAll(async () => {
    database = await createPostgresDatabase();
    const url = new URL(database.databaseUrl!);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.port = String(proxy.port);
    handle = await createDatabase({
      databaseUrl: url.toString(),
      dataDir: database.dataDir,
      queryTimeoutMs: 1_000,
      connectTimeoutMs: 1_000,
      writeRetryMs: 60_000,
      onConnectionError: (error) => connectionErrors.push(error),
    });
  });
  afterEach(() => proxy.restore());
  afterAll(async () => {
    await handle?.close();
    await proxy?.close();
    await database?.drop();
  });

  const names = async () =>
    (await handle.db.selectFrom('agents').select('name').orderBy('name').execute()).map((row) => row.name);

  it('survives connections terminated by the server mid-transaction; the pool opens new ones', async () => {
    // A transaction holds its connection between two statements: pg emits 'error' on that client, unheard
    // it would end the process (vitest fails a test on an uncaught error).
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    let goOn!: () => void;
    const resume = new Promise<void>((resolve) => (goOn = resolve));
    const transaction = handle.db.transaction().execute(async (trx) => {
      await trx.insertInto('agents').values(agent('lost-with-its-connection')).execute();
      held();
      await resume;
      await trx.insertInto('agents').values(agent('never')).execute();
    });
    await holding;
    expect(await terminateBackends(new URL(database.databaseUrl!).pathname.slice(1))).toBeGreaterThan(0);
    await expect.poll(() => connectionErrors.length).toBeGreaterThan(0);
    goOn();
    await expect(transaction).rejects.toBeInstanceOf(DatabaseUnavailableError);
    await handle.db.insertInto('agents').values(agent('after')).execute();
    expect(await names()).toEqual(['after']);
  });

  it('answers 503-class errors while refused, and works again once the server is back', async () => {
    await proxy.refuse();
    await expect(sql`select 1`.execute(handle.db)).rejects.toBeInstanceOf(DatabaseUnavailableError);
    expect(await handle.ping()).toBe(false);
    await proxy.restore();
    expect(await handle.ping()).toBe(true);
  });

  it('drops a connection that went silent after the query timeout, instead of reusing it', async () => {
    await handle.ping();
    proxy.silence();
    await expect(sql`select 1`.execute(handle.db)).rejects.toBeInstanceOf(DatabaseUnavailableError);
    await proxy.restore();
    // The silent connections stay open at the proxy but the pool has let them go: new ones answer.
    await expect.poll(() => handle.ping(), { timeout: 10_000 }).toBe(true);
    // Every pooled connection that was silent failed at most once: the next statements all answer.
    for (let i = 0; i < 5; i++) expect(await handle.ping()).toBe(true);
  });

  it('retries queued writes until the database is back, and says it is out of reach meanwhile', async () => {
    await proxy.refuse();
    const insert = (name: string) => async (db: Kysely<Database>) =>
      void (await db.insertInto('agents').values(agent(name)).execute());
    const first = handle.writes.write(insert('kept'));
    // Once a statement failed for it, the handle reports the outage: new runs are refused before they start.
    await expect.poll(() => handle.outage()).toBeInstanceOf(DatabaseUnavailableError);
    const persistent = handle.writes.write(insert('kept-too'), { persistent: true });
    await proxy.restore();
    await Promise.all([first, persistent]);
    expect(handle.outage()).toBeUndefined();
    expect(await names()).toEqual(expect.arrayContaining(['kept', 'kept-too']));
  });

  it('finds the database back by itself, with nothing but the outage checks running', async () => {
    await proxy.refuse();
    await expect(sql`select 1`.execute(handle.db)).rejects.toBeInstanceOf(DatabaseUnavailableError);
    expect(handle.outage()).toBeInstanceOf(DatabaseUnavailableError);
    await proxy.restore();
    // Refused runs write nothing, so only the checks' own probes can see that it answers again.
    await expect.poll(() => handle.outage(), { timeout: 10_000, interval: 200 }).toBeUndefined();
  });

  it('fails a write that the database did not take within the retry window', async () => {
    const short = createGroupCommit(handle.db, { retryMs: 300 });
    await proxy.refuse();
    await expect(
      short.write(async (db) => void (await db.insertInto('agents').values(agent('too-late')).execute())),
    ).rejects.toBeInstanceOf(DatabaseUnavailableError);
    await proxy.restore();
    expect(await names()).not.toContain('too-late');
  });
});
