import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** A write: one or more statements, run against the executor it is given. It must not wait for another queued write. */
export type Write = (db: Kysely<Database>) => Promise<void>;

export interface WriteOptions {
  /** The statements must commit together or not at all (always true inside a shared SQLite transaction). */
  atomic?: boolean;
}

/**
 * Where hot-path writes go (runs, steps, run ends, usage). Each promise resolves once its write is
 * committed, so a caller can still await it before answering its client.
 */
export interface WriteQueue {
  write(write: Write, options?: WriteOptions): Promise<void>;
  /** Resolves once everything queued so far is committed (or failed). */
  flush(): Promise<void>;
}

/** Writes that reach the database at once, each on its own (PostgreSQL: one pooled connection each). */
export function createDirectWrites(db: Kysely<Database>): WriteQueue {
  const pending = new Set<Promise<void>>();
  return {
    write(write, options = {}) {
      const done = options.atomic ? db.transaction().execute((trx) => write(trx)) : write(db);
      pending.add(done);
      void done.catch(() => undefined).finally(() => pending.delete(done));
      return done;
    },
    async flush() {
      await Promise.allSettled([...pending]);
    },
  };
}

export interface GroupCommitOptions {
  /** Writes per transaction at most. Default 256. */
  maxBatch?: number;
}

interface Queued {
  write: Write;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Group commit for SQLite, which has one writer and pays most of a write's cost in the commit: the writes
 * queued during one turn of the event loop share one transaction. If that transaction fails, each of its
 * writes is retried alone, so one bad write fails only its own caller. Batches run one after another;
 * what arrives during a commit forms the next batch, so batches grow with load by themselves.
 */
export function createGroupCommit(db: Kysely<Database>, options: GroupCommitOptions = {}): WriteQueue {
  const maxBatch = Math.max(1, options.maxBatch ?? 256);
  const queue: Queued[] = [];
  let scheduled: NodeJS.Immediate | undefined;
  let committing: Promise<void> = Promise.resolve();

  function commitSoon(): Promise<void> {
    clearImmediate(scheduled);
    scheduled = undefined;
    committing = committing.then(commitOneBatch);
    return committing;
  }

  async function commitOneBatch(): Promise<void> {
    const batch = queue.splice(0, maxBatch);
    if (batch.length === 0) return;
    try {
      await db.transaction().execute(async (trx) => {
        for (const queued of batch) await queued.write(trx);
      });
      for (const queued of batch) queued.resolve();
    } catch {
      for (const queued of batch) {
        await db
          .transaction()
          .execute((trx) => queued.write(trx))
          .then(queued.resolve, queued.reject);
      }
    }
    if (queue.length > 0) void commitSoon();
  }

  return {
    write(write) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ write, resolve, reject });
        if (queue.length >= maxBatch) void commitSoon();
        // setImmediate gathers every write of the current turn (a burst of concurrent requests).
        else scheduled ??= setImmediate(commitSoon);
      });
    },
    async flush() {
      while (queue.length > 0) await commitSoon();
      await committing;
    },
  };
}
