import { createAnalyticsWriteStore, createUsageRecorder } from '../../src/analytics/index.js';
import type { DatabaseHandle } from '../../src/db/index.js';

export interface RecorderTiming {
  flushIntervalMs: number;
  /** Callers awaiting record() at the same time, each one after the other in a loop. */
  concurrency: number;
  records: number;
  transactions: number;
  recordsPerSecond: number;
  /** Time from record() to its commit, as a caller awaiting it before answering would wait. */
  p50Ms: number;
  p99Ms: number;
}

/** Group commit under a given number of concurrent callers: throughput, batch sizes and commit latency. */
export async function timeRecorder(
  handle: DatabaseHandle,
  options: { records: number; concurrency: number; flushIntervalMs: number },
): Promise<RecorderTiming> {
  const { records, concurrency, flushIntervalMs } = options;
  const writes = createAnalyticsWriteStore(handle.db);
  let transactions = 0;
  const recorder = createUsageRecorder({
    flushIntervalMs,
    store: {
      writeBatch: (batch) => {
        transactions += 1;
        return writes.writeBatch(batch);
      },
    },
  });
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < records) {
        const i = next;
        next += 1;
        const sent = performance.now();
        await recorder.record({
          run_id: `run_recorder_${i}`,
          agent_name: 'agent-00',
          source: 'chat',
          model: 'openai/gpt-4o',
          input_tokens: 100,
          output_tokens: 20,
          cost_usd: 0.00045,
          latency_ms: 300,
          status: 'ok',
          priced: true,
          estimated: false,
        });
        latencies.push(performance.now() - sent);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await recorder.close();
  latencies.sort((a, b) => a - b);
  const at = (quantile: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * quantile))] * 100) / 100;
  return {
    flushIntervalMs,
    concurrency,
    records,
    transactions,
    recordsPerSecond: Math.round(records / seconds),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
  };
}
