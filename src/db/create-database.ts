import { join, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteAdapter,
  SqliteDriver,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
  type DatabaseConnection,
  type SqliteDialectConfig,
  type Dialect,
  type MigrationProvider,
} from 'kysely';
import { MIGRATIONS } from './migrations/index.js';
import type { DatabaseUnavailableError } from '../errors.js';
import { asUnavailable, isDatabaseLocked } from './connection-errors.js';
import { DATA_DIR_LOCK_FILE, lockDataDir } from './data-dir-lock.js';
import { prepareOwnerOnlyDataDir } from './owner-only-data-dir.js';
import { writeMergedBatch } from './merged-writes.js';
import { createPostgresPool } from './postgres-pool.js';
import { createReachability, type Reachability } from './reachability.js';
import { createStatementCache } from './sqlite-statement-cache.js';
import type { Database } from './schema.js';
import { startWalCheckpointer, WRITER_CHECKPOINT_PAGES, type WalCheckpointer } from './wal-checkpointer.js';
import { createGroupCommit, type WriteQueue } from './write-queue.js';

export type DatabaseEngine = 'sqlite' | 'postgres';

export interface DatabaseOptions {
  /** A postgres:// or postgresql:// URL selects PostgreSQL. */
  databaseUrl?: string;
  /** SQLite file location when no PostgreSQL URL is given. */
  dataDir: string;
  /** Pool size for PostgreSQL. */
  maxConnections?: number;
  /** PostgreSQL: a statement unanswered this long fails and its connection is dropped. Default 30 s. */
  queryTimeoutMs?: number;
  /** PostgreSQL: opening a connection, or waiting for a free one, fails after this long. Default 5 s. */
  connectTimeoutMs?: number;
  /** How long a queued hot-path write is retried while the database is out of reach. Default 0. */
  writeRetryMs?: number;
  /**
   * SQLite: take the data folder for this process (default true). False only for a second handle in a process that
   * knows another of its own holds it (tests reading what an app stored, or playing two replicas).
   */
  ownDataDir?: boolean;
  /** A connection lost or refused (PostgreSQL); the caller logs it. */
  onConnectionError?: (error: Error) => void;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  engine: DatabaseEngine;
  /** Where the data lives, with any password removed: safe to log. */
  location: string;
  /** Hot-path writes: group commit on SQLite (one writer), straight to the pool on PostgreSQL. */
  writes: WriteQueue;
  /** The last connection loss's (SQLite: lock's) error while the database is out of reach (db/reachability.ts). */
  outage(): DatabaseUnavailableError | undefined;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export function isPostgresUrl(url: string | undefined): url is string {
  return !!url && /^postgres(ql)?:\/\//.test(url);
}

/** Opens the database (SQLite in WAL mode by default, PostgreSQL for a postgres:// URL) and runs migrations. */
export async function createDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const sqlite = isPostgresUrl(options.databaseUrl) ? undefined : openSqlite(options.dataDir, options);
  const handle = sqlite?.handle ?? openPostgres(options.databaseUrl!, options);
  try {
    await migrateToLatest(handle.db);
  } catch (error) {
    await handle.close();
    throw error;
  }
  sqlite?.serving();
  return handle;
}

/**
 * How long a SQLite statement waits for a lock another connection holds, once the database is open. better-sqlite3
 * waits synchronously, holding the event loop (health went unanswered for the 5 s it was): past this, the
 * statement fails with `DatabaseUnavailableError` (503, Retry-After) and a queued write is tried again later. This
 * process's own writes never wait on each other (one connection, the group commit), nor on the WAL checkpoint
 * thread (a PASSIVE checkpoint takes no lock a writer needs).
 */
export const SQLITE_BUSY_TIMEOUT_MS = 50;
/** While opening and migrating (nothing is served yet), a lock is waited for as long as before. */
const SQLITE_OPEN_BUSY_TIMEOUT_MS = 5_000;

/** The database file in a SQLite data folder. */
const SQLITE_FILE = 'agent-gateway.sqlite';

function openSqlite(dataDir: string, options: DatabaseOptions): { handle: DatabaseHandle; serving(): void } {
  // Conversations, prompts and token hashes: readable by this user only (issue #41).
  prepareOwnerOnlyDataDir(dataDir, [SQLITE_FILE, DATA_DIR_LOCK_FILE]);
  // One process per folder: a second one would take the first one's live runs for orphans (issue #41).
  const lock = options.ownDataDir === false ? { release: () => undefined } : lockDataDir(resolve(dataDir));
  try {
    return openSqliteFile(resolve(join(dataDir, SQLITE_FILE)), options, () => lock.release());
  } catch (error) {
    lock.release();
    throw error;
  }
}

function openSqliteFile(
  file: string,
  options: DatabaseOptions,
  release: () => void,
): { handle: DatabaseHandle; serving(): void } {
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  // NORMAL is durable across process crashes in WAL mode; only an OS crash can lose the last commits.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma(`busy_timeout = ${SQLITE_OPEN_BUSY_TIMEOUT_MS}`);
  sqlite.pragma('foreign_keys = ON');
  // Locked by another process from a statement refused for it to the next write transaction that began. Reads
  // are not evidence (WAL readers never wait), so the probe takes the write lock: begin immediate, commit.
  const reachability = createReachability(() => db.transaction().execute(async () => undefined));
  const db: Kysely<Database> = new Kysely<Database>({
    dialect: createSqliteDialect(createStatementCache(sqlite), reachability),
  });
  // WAL checkpoints move to a thread of their own with the first hot-path write (a gateway that only starts
  // needs none); from then on the writer's own checkpoint is only the backstop (wal-checkpointer.ts).
  let checkpointer: WalCheckpointer | undefined;
  let unavailable = false;
  const onCommit = () => {
    if (!checkpointer && !unavailable) {
      try {
        checkpointer = startWalCheckpointer(file);
        sqlite.pragma(`wal_autocheckpoint = ${WRITER_CHECKPOINT_PAGES}`);
      } catch {
        // No thread (none could start): SQLite's own checkpoint goes on as before.
        unavailable = true;
      }
    }
    checkpointer?.committed();
  };
  const writes = createGroupCommit(db, { onCommit, retryMs: options.writeRetryMs });
  const handle: DatabaseHandle = {
    db,
    engine: 'sqlite',
    location: file,
    writes,
    outage: () => reachability.outage(),
    ping: async () => {
      try {
        sqlite.prepare('select 1').get();
        return true;
      } catch {
        return false;
      }
    },
    close: async () => {
      try {
        await writes.close();
        await checkpointer?.close();
        await db.destroy();
      } finally {
        release();
      }
    },
  };
  return { handle, serving: () => sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`) };
}

/**
 * Kysely's SQLite dialect, changed in two ways. SQLite has transactional DDL, so migrations run in a
 * transaction (kysely assumes it has not, and a failed migration would leave half a schema behind).
 * Transactions begin IMMEDIATE: they take the write lock before reading, so a second process opening the
 * same file waits (busy_timeout) and then sees the first one's migrations instead of racing it.
 */
function createSqliteDialect(database: SqliteDialectConfig['database'], reachability: Reachability): Dialect {
  return {
    createAdapter: () => new TransactionalDdlSqliteAdapter(),
    createDriver: () => new ImmediateTransactionSqliteDriver({ database }, reachability),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}

class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/**
 * Transactions begin IMMEDIATE, and a statement refused because another process holds the lock (SQLITE_BUSY past
 * the busy timeout, SQLITE_LOCKED) fails as `DatabaseUnavailableError` (503 with Retry-After; the group commit
 * tries its writes again) and tells `reachability`; a write transaction that begins tells it the lock was had.
 */
class ImmediateTransactionSqliteDriver extends SqliteDriver {
  readonly #reachability: Reachability;
  #connection?: DatabaseConnection;

  constructor(config: SqliteDialectConfig, reachability: Reachability) {
    super(config);
    this.#reachability = reachability;
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    this.#connection ??= {
      executeQuery: async (query) => {
        try {
          return await connection.executeQuery(query);
        } catch (error) {
          if (!isDatabaseLocked(error)) throw error;
          const unavailable = asUnavailable(error) as DatabaseUnavailableError;
          this.#reachability.lost(unavailable);
          throw unavailable;
        }
      },
      streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
    };
    return this.#connection;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    this.#reachability.reached();
  }
}

/**
 * Group-commit transactions at once on PostgreSQL (chosen by measurement: bench/README.md, optimisation log).
 * 4 while each write was a statement of its own; with merged statements fewer, larger batches cost less
 * CPU per request on both sides and served more requests/s than 1, 4 or 8.
 */
export const POSTGRES_WRITE_CONCURRENCY = 2;

function openPostgres(url: string, options: DatabaseOptions): DatabaseHandle {
  const reachability = createReachability(() => sql`select 1`.execute(db));
  const pool = createPostgresPool({
    url,
    maxConnections: options.maxConnections ?? 10,
    queryTimeoutMs: options.queryTimeoutMs ?? 30_000,
    connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
    onConnectionError: options.onConnectionError ?? (() => undefined),
    reachability,
  });
  const db: Kysely<Database> = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const location = url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
  // Group commit here too: every commit waits for a WAL flush, so the hot-path writes of one event-loop turn
  // (run inserts, steps, run ends) share one transaction and one flush (bench/README.md, optimisation log).
  // Each statement is a round trip, so one batch at a time left the pool idle while requests queued behind
  // it: up to POSTGRES_WRITE_CONCURRENCY batches go at once, leaving the rest of the pool to reads.
  // Within a batch, the INSERTs and keyed UPDATEs of one kind go as one statement (db/merged-writes.ts).
  const writes = createGroupCommit(db, {
    concurrency: Math.min(POSTGRES_WRITE_CONCURRENCY, options.maxConnections ?? 10),
    writeBatch: (batch) => writeMergedBatch(pool, batch),
    retryMs: options.writeRetryMs,
  });
  return {
    db,
    engine: 'postgres',
    location,
    writes,
    outage: () => reachability.outage(),
    ping: async () => {
      try {
        await sql`select 1`.execute(db);
        return true;
      } catch {
        return false;
      }
    },
    close: async () => {
      await writes.close();
      await db.destroy();
    },
  };
}

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** Runs pending migrations; each runs in a transaction and the migrator's lock keeps concurrent starts safe. */
export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error');
    throw new Error(
      `database migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`, // eslint-disable-line @typescript-eslint/no-base-to-string -- any thrown value: its own toString is the best text there is
    );
  }
}
