import { createBatcher } from '../db/index.js';
import type { AnalyticsWriteStore } from './analytics-write.store.js';
import type { AnalyticsBatch } from './analytics.types.js';
import type { RiskEventInput, RiskRow, UsageRecordInput, UsageRow } from './analytics.types.js';
import { convertToRiskRow, convertToUsageRow } from './convert-to-rows.js';

export interface UsageRecorderOptions {
  /**
   * With `queueBatch` (the real store) and no `flushIntervalMs`, records join the store's write queue at
   * once (app.ts: the group commit, so they commit with the run ends of the same turn); otherwise they are
   * batched here first and written with `writeBatch`.
   */
  store: Pick<AnalyticsWriteStore, 'writeBatch'> & Partial<Pick<AnalyticsWriteStore, 'queueBatch'>>;
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

type Row = { usage: UsageRow; risk?: undefined } | { risk: RiskRow; usage?: undefined };

export function createUsageRecorder(options: UsageRecorderOptions): UsageRecorder {
  const { queueBatch } = options.store;
  const batcher =
    queueBatch && !options.flushIntervalMs
      ? createQueuedBatches(queueBatch, options.maxBatch ?? 500)
      : createRecorderBatcher(options);
  let closed = false;

  function accept(convert: () => Row): Promise<void> {
    if (closed) return Promise.reject(new Error('The usage recorder is closed'));
    try {
      return batcher.add(convert());
    } catch (error) {
      return Promise.reject(error);
    }
  }

  return {
    record: (usage) => accept(() => ({ usage: convertToUsageRow(usage) })),
    recordRisk: (event) => accept(() => ({ risk: convertToRiskRow(event) })),
    flush: () => batcher.flush(),
    async close() {
      closed = true;
      await batcher.flush();
    },
  };
}

interface RowBatcher {
  add(row: Row): Promise<void>;
  flush(): Promise<void>;
}

function createRecorderBatcher(options: UsageRecorderOptions): RowBatcher {
  // The transaction rolls back as a whole: every caller in a failed batch learns that its record is not stored.
  const batcher = createBatcher<Row>({
    maxBatch: options.maxBatch ?? 500,
    delayMs: options.flushIntervalMs,
    writeBatch: (rows) =>
      options.store.writeBatch({
        usage: rows.flatMap((row) => (row.usage ? [row.usage] : [])),
        risks: rows.flatMap((row) => (row.risk ? [row.risk] : [])),
      }),
  });
  return batcher;
}

/**
 * Rows join an open batch already queued on the store's write queue; the batch closes when the queue starts
 * writing it (or at `maxBatch` rows). No hop of its own: a run's usage commits with its end at c=1, where a
 * batch of our own took a second commit after the run end's (bench/HISTORY.md, optimisation log).
 */
function createQueuedBatches(queueBatch: AnalyticsWriteStore['queueBatch'], maxBatch: number): RowBatcher {
  let open: { batch: AnalyticsBatch; size: number; done: Promise<void> } | undefined;
  const pending = new Set<Promise<void>>();
  return {
    add(row) {
      if (!open || open.size >= maxBatch) {
        const batch: AnalyticsBatch = { usage: [], risks: [] };
        const opened = { batch, size: 0, done: Promise.resolve() };
        opened.done = queueBatch(batch, () => {
          if (open === opened) open = undefined;
        });
        pending.add(opened.done);
        // Also closed once settled: a batch whose transaction never started (the database out of reach)
        // never calls onStart, and rows added to it after its failure would fail with it, for good.
        void opened.done
          .catch(() => undefined)
          .finally(() => {
            pending.delete(opened.done);
            if (open === opened) open = undefined;
          });
        open = opened;
      }
      if (row.usage) open.batch.usage.push(row.usage);
      else open.batch.risks.push(row.risk);
      open.size += 1;
      return open.done;
    },
    async flush() {
      await Promise.allSettled([...pending]);
    },
  };
}
