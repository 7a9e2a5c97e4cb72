import type { AnalyticsWriteStore } from './analytics-write.store.js';
import type { RiskEventInput, RiskRow, UsageRecordInput, UsageRow } from './analytics.types.js';
import { convertToRiskRow, convertToUsageRow } from './convert-to-rows.js';

export interface UsageRecorderOptions {
  store: Pick<AnalyticsWriteStore, 'writeBatch'>;
  /**
   * How long the first record of a batch waits for company. Default 0: the next turn of the event loop.
   * Records arriving while a batch is being written form the next batch anyway, so batches grow with
   * load by themselves; bench/results/analytics-aggregation.md shows a 5 ms wait adding 5 ms to every
   * commit and lowering throughput.
   */
  flushIntervalMs?: number;
  /** Rows per transaction at most; a full batch is written at once. Default 500. */
  maxBatch?: number;
}

/**
 * Group commit for usage records and risk events. Each promise resolves once its row is committed, or
 * rejects with the write's error, so a caller can await it before answering its client.
 */
export interface UsageRecorder {
  record(usage: UsageRecordInput): Promise<void>;
  recordRisk(event: RiskEventInput): Promise<void>;
  /** Writes everything accepted so far. */
  flush(): Promise<void>;
  /** Refuses new records, then writes everything accepted (on shutdown). */
  close(): Promise<void>;
}

interface Pending {
  usage?: UsageRow;
  risk?: RiskRow;
  resolve(): void;
  reject(error: unknown): void;
}

export function createUsageRecorder(options: UsageRecorderOptions): UsageRecorder {
  const flushIntervalMs = options.flushIntervalMs ?? 0;
  const maxBatch = Math.max(1, options.maxBatch ?? 500);
  const queue: Pending[] = [];
  let timer: NodeJS.Timeout | undefined;
  let immediate: NodeJS.Immediate | undefined;
  // Batches are written one after another; what arrives during a write forms the next batch.
  let writing: Promise<void> = Promise.resolve();
  let closed = false;

  function accept(row: Pick<Pending, 'usage' | 'risk'>): Promise<void> {
    if (closed) return Promise.reject(new Error('The usage recorder is closed'));
    return new Promise<void>((resolve, reject) => {
      queue.push({ ...row, resolve, reject });
      if (queue.length >= maxBatch) void writeSoon();
      else schedule();
    });
  }

  function schedule(): void {
    if (timer || immediate) return;
    // setImmediate still gathers every record of the current turn (e.g. a burst of concurrent callers).
    if (flushIntervalMs > 0) timer = setTimeout(writeSoon, flushIntervalMs);
    else immediate = setImmediate(writeSoon);
  }

  function writeSoon(): Promise<void> {
    clearTimeout(timer);
    clearImmediate(immediate);
    timer = undefined;
    immediate = undefined;
    writing = writing.then(writeOneBatch);
    return writing;
  }

  async function writeOneBatch(): Promise<void> {
    const batch = queue.splice(0, maxBatch);
    if (batch.length === 0) return;
    try {
      await options.store.writeBatch({
        usage: batch.flatMap((pending) => (pending.usage ? [pending.usage] : [])),
        risks: batch.flatMap((pending) => (pending.risk ? [pending.risk] : [])),
      });
      for (const pending of batch) pending.resolve();
    } catch (error) {
      // The transaction rolled back as a whole: every caller in it learns that its record is not stored.
      for (const pending of batch) pending.reject(error);
    }
    // What arrived during this write has already waited as long as a write takes.
    if (queue.length > 0) void writeSoon();
  }

  async function flush(): Promise<void> {
    while (queue.length > 0) await writeSoon();
    await writing;
  }

  return {
    record: (usage) => {
      try {
        return accept({ usage: convertToUsageRow(usage) });
      } catch (error) {
        return Promise.reject(error);
      }
    },
    recordRisk: (event) => {
      try {
        return accept({ risk: convertToRiskRow(event) });
      } catch (error) {
        return Promise.reject(error);
      }
    },
    flush,
    async close() {
      closed = true;
      await flush();
    },
  };
}
