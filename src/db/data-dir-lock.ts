import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';

/** The file whose lock says which process owns a SQLite data folder. */
export const DATA_DIR_LOCK_FILE = 'agent-gateway.lock';
/** Who holds the lock (pid, host, start time): written by the holder, read by a process refused. */
export const DATA_DIR_OWNER_FILE = 'agent-gateway.owner.json';

export interface DataDirOwner {
  pid: number;
  host: string;
  started_at: string;
}

export interface DataDirLock {
  /** Gives the folder up (on close); a process that dies gives it up too, whatever killed it. */
  release(): void;
}

/** A second process started on a data folder another one owns. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: DataDirOwner | undefined,
  ) {
    const holder = owner
      ? `process ${owner.pid} on host ${owner.host}, started ${owner.started_at}`
      : 'another process (it has not said which yet)';
    super(
      `the data folder ${dataDir} is in use by ${holder}: one process owns a SQLite data folder. Stop that process, ` +
        'give this one a data folder of its own (--data-dir, DATA_DIR), or share PostgreSQL (server.database_url) between replicas',
    );
    this.name = 'DataDirInUseError';
  }
}

/**
 * Takes the data folder for this process, or throws `DataDirInUseError`. The lock is SQLite's own: an
 * exclusive transaction, never committed, on a small database file of its own, so the operating system's
 * file lock (the one SQLite relies on for the data itself) holds it, and it ends with the process, `kill -9`
 * included: a dead holder never blocks the next start, and no timestamps are involved. The data's file is not
 * touched, so the WAL checkpoint thread's second connection to it is unaffected.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const lock = new SqliteDatabase(join(dataDir, DATA_DIR_LOCK_FILE), { timeout: 0 });
  try {
    lock.exec('begin exclusive');
  } catch (error) {
    lock.close();
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') throw new DataDirInUseError(dataDir, readOwner(dataDir));
    throw error;
  }
  const ownerFile = join(dataDir, DATA_DIR_OWNER_FILE);
  const owner: DataDirOwner = { pid: process.pid, host: hostname(), started_at: new Date().toISOString() };
  // Written whole then renamed: a process refused meanwhile reads the old holder's or this one's, never half.
  writeFileSync(`${ownerFile}.${process.pid}`, `${JSON.stringify(owner)}\n`, { mode: 0o600 });
  renameSync(`${ownerFile}.${process.pid}`, ownerFile);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      rmSync(ownerFile, { force: true });
      lock.close();
    },
  };
}

function readOwner(dataDir: string): DataDirOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(join(dataDir, DATA_DIR_OWNER_FILE), 'utf8')) as Partial<DataDirOwner>;
    if (typeof owner.pid === 'number' && typeof owner.host === 'string' && typeof owner.started_at === 'string')
      return { pid: owner.pid, host: owner.host, started_at: owner.started_at };
  } catch {
    // Not written yet (the holder is starting) or unreadable: the message says so.
  }
  return undefined;
}
