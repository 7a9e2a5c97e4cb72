import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { createBatcher } from './batcher.js';
import type { DatabaseUnavailableError } from '../errors.js';
import { asUnavailable, isConnectionLoss, isDatabaseLocked, reconnectDelayMs } from './connection-errors.js';
import { isUniqueViolation } from './driver-errors.js';
import type { Database } from './schema.js';
import type { Write } from './write.js';

export type { Write } from './write.js';

export interface WriteOptions {
  /** The statements must commit together or not at all (always true inside a shared SQLite transaction). */
  atomic?: boolean;
  /**
   * Retried while the database is out of reach until it is written or the queue closes, past `retryMs`: for
   * records of what already happened and was reported (a run's end, its usage), which must not be lost.
   */
  persistent?: boolean;
  /**
   * A client waits on this write (a new run's insert): a database locked by another process (SQLite) fails it
   * at once with `DatabaseUnavailableError` instead of retrying it, and the caller records it once the lock is gone.
   */
  failFastWhenLocked?: boolean;
}

/**
 * Where hot-path writes go (runs, steps, run ends, usage). Each promise resolves once its write is
 * committed, so a caller can still await it before answering its client.
 */
export interface WriteQueue {
  write(write: Write, options?: WriteOptions): Promise<void>;
  /** Resolves once everything queued so far is committed (or failed). */
  flush(): Promise<void>;
  /** Stops retrying writes the database did not take (they fail now), then flushes: on shutdown. */
  close(): Promise<void>;
}

/** Writes that reach the database at once, each on its own (PostgreSQL: one pooled connection each). */
export function createDirectWrites(db: Kysely<Database>): WriteQueue {
  const pending = new Set<Promise<void>>();
  const flush = async () => {
    await Promise.allSettled([...pending]);
  };
  return {
    write(write, options = {}) {
      const done = options.atomic ? db.transaction().execute((trx) => write(trx)) : write(db);
      pending.add(done);
      void done.catch(() => undefined).finally(() => pending.delete(done));
      return done;
    },
    flush,
    close: flush,
  };
}

export interface GroupCommitOptions {
  /** Writes per transaction at most. Default 256. */
  maxBatch?: number;
  /** Transactions at once at most (each on its own connection). Default 1, what SQLite's one writer allows. */
  concurrency?: number;
  /** Called after each transaction commits (SQLite: wakes the WAL checkpoint thread). */
  onCommit?: () => void;
  /**
   * Writes one batch in one transaction. Default: a kysely transaction running the writes one by one (SQLite).
   * PostgreSQL's runs them side by side and merges their statements (db/merged-writes.ts).
   */
  writeBatch?: (writes: Write[]) => Promise<void>;
  /**
   * How long a write is retried, from when it was queued, while the database is out of reach (a lost or
   * refused connection, db/connection-errors.ts); then it fails with `DatabaseUnavailableError`. Default 0.
   * A `persistent` write is retried until the queue closes.
   */
  retryMs?: number;
}

interface QueuedWrite {
  write: Write;
  /** When retrying stops: `queuedAt + retryMs`, or Infinity for a persistent write. */
  retryUntil: number;
  failFastWhenLocked: boolean;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Group commit: the writes queued during one turn of the event loop share one transaction (SQLite has one
 * writer and pays most of a write's cost in the commit; PostgreSQL waits for one WAL flush per commit).
 * If that transaction fails, each of its writes is tried alone, so one bad write fails only its own caller.
 * If the database is out of reach, the batch is tried again (`retryMs`) until it is back.
 */
export function createGroupCommit(db: Kysely<Database>, options: GroupCommitOptions = {}): WriteQueue {
  const retryMs = options.retryMs ?? 0;
  const stopRetrying = new AbortController();
  const transaction =
    options.writeBatch ??
    ((writes: Write[]) =>
      db.transaction().execute(async (trx) => {
        for (const write of writes) await write(trx);
      }));

  async function commit(entries: QueuedWrite[]): Promise<void> {
    // Set when an attempt lost its connection during COMMIT: that transaction may have gone through.
    let maybeCommitted = false;
    for (let attempt = 0; ; attempt += 1) {
      try {
        await transaction(entries.map((entry) => entry.write));
        break;
      } catch (error) {
        // The writes insert rows under ids of their own: a retry refused as a duplicate finds the earlier
        // attempt's commit, which took every write of the batch.
        if (maybeCommitted && isUniqueViolation(error)) break;
        if (!isConnectionLoss(error)) {
          if (entries.length === 1) return entries[0].reject(error);
          for (const entry of entries) await commit([entry]);
          return;
        }
        const unavailable = asUnavailable(error) as DatabaseUnavailableError;
        maybeCommitted ||= unavailable.commitUnknown;
        const now = Date.now();
        const locked = isDatabaseLocked(unavailable);
        entries = entries.filter((entry) => {
          const retry = !stopRetrying.signal.aborted && now < entry.retryUntil && !(locked && entry.failFastWhenLocked);
          if (!retry) entry.reject(unavailable);
          return retry;
        });
        if (entries.length === 0) return;
        await sleep(reconnectDelayMs(attempt), undefined, { signal: stopRetrying.signal }).catch(() => undefined);
      }
    }
    try {
      options.onCommit?.();
    } catch {
      // The hook's own problem; the writes are committed.
    }
    for (const entry of entries) entry.resolve();
  }

  const batcher = createBatcher<QueuedWrite>({
    maxBatch: options.maxBatch ?? 256,
    concurrency: options.concurrency,
    writeBatch: commit,
  });
  return {
    write: (write, writeOptions = {}) =>
      new Promise<void>((resolve, reject) => {
        const retryUntil = writeOptions.persistent ? Infinity : Date.now() + retryMs;
        // commit() settles each entry itself, so the batcher's own promise carries nothing.
        void batcher.add({
          write,
          retryUntil,
          failFastWhenLocked: writeOptions.failFastWhenLocked ?? false,
          resolve,
          reject,
        });
      }),
    flush: () => batcher.flush(),
    close() {
      stopRetrying.abort();
      return batcher.flush();
    },
  };
}
