import { chmodSync, closeSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Files of ours in a data folder: the database and its `-wal`, `-shm`, `-journal`, the lock and owner files. */
const OUR_FILES = /^agent-gateway\./;

/**
 * Prepares a SQLite data folder that only this user can read: created 0700, and every database and lock file 0600
 * (files an earlier version left world-readable included). `files` are created empty (0600) when absent, before
 * SQLite opens them: SQLite gives a database's `-wal`, `-shm` and `-journal` its database file's permissions.
 */
export function prepareOwnerOnlyDataDir(dataDir: string, files: readonly string[]): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  for (const name of files) closeSync(openSync(join(dataDir, name), 'a', 0o600));
  for (const entry of readdirSync(dataDir, { withFileTypes: true }))
    if (entry.isFile() && OUR_FILES.test(entry.name)) chmodSync(join(dataDir, entry.name), 0o600);
}
