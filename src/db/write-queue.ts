import type { Kysely } from 'kysely';
import { createBatcher } from './batcher.js';
import { runWritesMerged } from './merged-writes.js';
import type { Database } from './schema.js';
import type { Write } from './write.js';

export type { Write } from './write.js';

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
  /** Transactions at once at most (each on its own connection). Default 1, what SQLite's one writer allows. */
  concurrency?: number;
  /** Called after each transaction commits (SQLite: wakes the WAL checkpoint thread). */
  onCommit?: () => void;
  /**
   * A batch's writes run side by side and their INSERTs and keyed UPDATEs of one text go as one statement
   * (db/merged-writes.ts): for PostgreSQL, where each statement is a round trip. SQLite runs them one by one.
   */
  mergeStatements?: boolean;
}

/**
 * Group commit for SQLite, which has one writer and pays most of a write's cost in the commit: the writes
 * queued during one turn of the event loop share one transaction. If that transaction fails, each of its
 * writes is retried alone, so one bad write fails only its own caller.
 */
export function createGroupCommit(db: Kysely<Database>, options: GroupCommitOptions = {}): WriteQueue {
  // After a commit nothing may fail the batch: a failed batch is written again write by write.
  const committed = () => {
    try {
      options.onCommit?.();
    } catch {
      // The hook's own problem; the writes are committed.
    }
  };
  const batcher = createBatcher<Write>({
    maxBatch: options.maxBatch ?? 256,
    concurrency: options.concurrency,
    writeBatch: async (writes) => {
      await db.transaction().execute(async (trx) => {
        if (options.mergeStatements) return runWritesMerged(trx, writes);
        for (const write of writes) await write(trx);
      });
      committed();
    },
    writeOne: async (write) => {
      await db.transaction().execute((trx) => write(trx));
      committed();
    },
  });
  return { write: (write) => batcher.add(write), flush: () => batcher.flush() };
}
