// Every size and duration of `npm run bench` in one place. Sized so that the whole run stays under
// 10 minutes on the project's 2-core machine; BENCH_ROUND_SECONDS and BENCH_ROUNDS scale the load phases.
const envNumber = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);

export const BENCH_SETTINGS = {
  /** Seconds of one measurement of one target; every target gets `rounds` of them, interleaved. */
  roundSeconds: envNumber('BENCH_ROUND_SECONDS', 3),
  rounds: envNumber('BENCH_ROUNDS', 2),
  /** Unrecorded load before each scenario's first round, per target (JIT, connection pools, SQLite cache). */
  warmupSeconds: 1,
  nonStream: { concurrencies: [1, 32, 256], openLoopRates: [100, 300], openLoopConnections: 64 },
  stream: { concurrencies: [1, 16] },
  fanout: { subscribers: 1_000, attachBatch: 100 },
  /** processedSeconds: load on the webhook whose deliveries each run an agent; then the backlog is drained. */
  webhooks: {
    connections: 32,
    processedSeconds: envNumber('BENCH_WEBHOOK_PROCESSED_SECONDS', 2),
    drainTimeoutSeconds: 300,
  },
  memory: { loadSeconds: 5, connections: 32, settleSeconds: 5, sampleMs: 250 },
  startup: { starts: 3 },
  /** 1,000,000 usage rows; BENCH_ANALYTICS_ROWS makes a quick run possible. */
  analytics: { rows: envNumber('BENCH_ANALYTICS_ROWS', 1_000_000), runs: 1 },
  profile: { seconds: envNumber('BENCH_PROFILE_SECONDS', 10) },
  /**
   * Issue 22: never-reading clients (half chat completions, half AG-UI runs) on 50 MB streams; RSS read while they
   * hold still. BENCH_STALLED_CLIENTS lowers the count (a gateway without backpressure buffers every stream).
   */
  stalledReaders: {
    clients: envNumber('BENCH_STALLED_CLIENTS', 100),
    streamBytes: 50 * 1024 * 1024,
    chunkBytes: 1024,
    holdSeconds: envNumber('BENCH_STALLED_HOLD_SECONDS', 20),
    sampleMs: 250,
  },
  /** The 5-minute load for the memory target; only run when named (`npm run bench -- soak`). */
  // 300 s (the 5 minutes) when the soak is named alone; 60 s inside the full run, to fit its time budget.
  soak: {
    seconds: envNumber('BENCH_SOAK_SECONDS', process.argv.includes('soak') ? 300 : 60),
    connections: 32,
    settleSeconds: 30,
    sampleMs: 1_000,
  },
} as const;

/** The fake upstream's three behaviours, each its own process so that one never waits on another. */
export const UPSTREAM_PROFILES = {
  /** Answers at once: everything measured is what the hop in front of it costs. */
  fast: { latencyMs: 0, responseBytes: 512, chunks: 8, chunkIntervalMs: 0, stamp: false },
  /** Paced like a model: 20 ms to the first byte, 16 chunks 10 ms apart, each stamped with its send time. */
  paced: { latencyMs: 20, responseBytes: 512, chunks: 16, chunkIntervalMs: 10, stamp: true },
  /** A long answer for AG-UI fan-out: 1 s before the first chunk (time to attach), then 120 chunks 50 ms apart. */
  slow: { latencyMs: 1_000, responseBytes: 6_000, chunks: 120, chunkIntervalMs: 50, stamp: true },
} as const;

export type UpstreamProfile = keyof typeof UPSTREAM_PROFILES;

export const BENCH_API_KEY = 'bench-api-key-0123456789';
export const BENCH_WEBHOOK_SECRET = 'bench-webhook-secret';
/** The prompt every completion sends: short, and clean for the guardrails. */
export const BENCH_PROMPT = 'Write a short paragraph about foxes and dogs.';
