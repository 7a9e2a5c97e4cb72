export interface BatcherOptions<T> {
  /** Writes one batch; a rejection fails the batch. */
  writeBatch(items: T[]): Promise<void>;
  /** When given, a failed batch is written again item by item, so one bad item fails only its own caller. */
  writeOne?(item: T): Promise<void>;
  /** Items per batch at most; a full batch is written at once. */
  maxBatch: number;
  /** How long the first item of a batch waits for company. 0 (default): the next turn of the event loop. */
  delayMs?: number;
  /**
   * Batches written at once at most. Default 1: one after another (SQLite has one writer). More keeps
   * a server database's connections busy while each batch waits on its round trips.
   */
  concurrency?: number;
}

export interface Batcher<T> {
  /** Resolves once the item's batch is written, or rejects with the write's error. */
  add(item: T): Promise<void>;
  /** Resolves once everything added so far is written (or failed). */
  flush(): Promise<void>;
}

interface Pending<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: the items added during one turn of the event loop (or `delayMs`) are written together.
 * Batches are written one after another; what arrives during a write forms the next batch, so batches grow
 * with load by themselves. Used for SQLite's shared transactions and for the usage recorder's batches.
 */
export function createBatcher<T>(options: BatcherOptions<T>): Batcher<T> {
  const maxBatch = Math.max(1, options.maxBatch);
  const delayMs = options.delayMs ?? 0;
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const queue: Pending<T>[] = [];
  const writing = new Set<Promise<void>>();
  let scheduled: { cancel(): void } | undefined;

  function schedule(): void {
    if (delayMs > 0) {
      const timer = setTimeout(writeSoon, delayMs);
      scheduled = { cancel: () => clearTimeout(timer) };
    } else {
      const immediate = setImmediate(writeSoon);
      scheduled = { cancel: () => clearImmediate(immediate) };
    }
  }

  // Starts batches while fewer than `concurrency` are being written; the rest wait for one to end.
  function writeSoon(): void {
    scheduled?.cancel();
    scheduled = undefined;
    while (writing.size < concurrency && queue.length > 0) {
      const done = writeOneBatch(queue.splice(0, maxBatch)).finally(() => {
        writing.delete(done);
        // What arrived during this write has already waited as long as a write takes.
        if (queue.length > 0) writeSoon();
      });
      writing.add(done);
    }
  }

  async function writeOneBatch(batch: Pending<T>[]): Promise<void> {
    try {
      await options.writeBatch(batch.map((pending) => pending.item));
      for (const pending of batch) pending.resolve();
    } catch (error) {
      for (const pending of batch) {
        if (options.writeOne) await options.writeOne(pending.item).then(pending.resolve, pending.reject);
        else pending.reject(error);
      }
    }
  }

  return {
    add(item) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (queue.length >= maxBatch && writing.size < concurrency) writeSoon();
        // setImmediate still gathers every item of the current turn (a burst of concurrent callers).
        else if (!scheduled && writing.size < concurrency) schedule();
      });
    },
    async flush() {
      while (queue.length > 0 || writing.size > 0) {
        writeSoon();
        await Promise.allSettled([...writing]);
      }
    },
  };
}
