export interface BatcherOptions<T> {
  /** Writes one batch; a rejection fails the batch. */
  writeBatch(items: T[]): Promise<void>;
  /** When given, a failed batch is written again item by item, so one bad item fails only its own caller. */
  writeOne?(item: T): Promise<void>;
  /** Items per batch at most; a full batch is written at once. */
  maxBatch: number;
  /** How long the first item of a batch waits for company. 0 (default): the next turn of the event loop. */
  delayMs?: number;
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
  const queue: Pending<T>[] = [];
  let scheduled: { cancel(): void } | undefined;
  let writing: Promise<void> = Promise.resolve();

  function schedule(): void {
    if (delayMs > 0) {
      const timer = setTimeout(() => void writeSoon(), delayMs);
      scheduled = { cancel: () => clearTimeout(timer) };
    } else {
      const immediate = setImmediate(() => void writeSoon());
      scheduled = { cancel: () => clearImmediate(immediate) };
    }
  }

  function writeSoon(): Promise<void> {
    scheduled?.cancel();
    scheduled = undefined;
    writing = writing.then(writeOneBatch);
    return writing;
  }

  async function writeOneBatch(): Promise<void> {
    const batch = queue.splice(0, maxBatch);
    if (batch.length === 0) return;
    try {
      await options.writeBatch(batch.map((pending) => pending.item));
      for (const pending of batch) pending.resolve();
    } catch (error) {
      for (const pending of batch) {
        if (options.writeOne) await options.writeOne(pending.item).then(pending.resolve, pending.reject);
        else pending.reject(error);
      }
    }
    // What arrived during this write has already waited as long as a write takes.
    if (queue.length > 0) void writeSoon();
  }

  return {
    add(item) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (queue.length >= maxBatch) void writeSoon();
        // setImmediate still gathers every item of the current turn (a burst of concurrent callers).
        else if (!scheduled) schedule();
      });
    },
    async flush() {
      while (queue.length > 0) await writeSoon();
      await writing;
    },
  };
}
