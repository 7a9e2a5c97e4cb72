import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** WAL pages after which the writer's own connection still checkpoints: a backstop should the thread fall behind. */
export const WRITER_CHECKPOINT_PAGES = 10_000;

export interface WalCheckpointer {
  /** Called after each commit: wakes the thread (a shared-memory notify, no message, no event-loop turn). */
  committed(): void;
  /** Stops the thread; the writer's connection then checkpoints what is left as it closes. */
  close(): Promise<void>;
}

// Slots of the shared Int32Array: commits so far, and the stop flag.
const COMMITS = 0;
const STOP = 1;

/**
 * The thread's code, evaluated as a script (no file of its own, so the server bundle needs no extra entry).
 * It sleeps until a commit is signalled, waits `gatherMs` for company, then runs a PASSIVE checkpoint on a
 * connection of its own: it copies committed WAL pages into the database file without blocking the writer.
 */
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const state = new Int32Array(workerData.state);
const db = new Database(workerData.file, { fileMustExist: true });
let seen = 0;
while (Atomics.load(state, ${STOP}) === 0) {
  Atomics.wait(state, ${COMMITS}, seen);
  if (Atomics.load(state, ${STOP}) !== 0) break;
  Atomics.wait(state, ${STOP}, 0, workerData.gatherMs);
  seen = Atomics.load(state, ${COMMITS});
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or failing: the next commit tries again, and the writer's own checkpoint is the backstop.
  }
}
db.close();
`;

/**
 * Checkpoints the SQLite WAL on a thread of its own. With SQLite's automatic checkpoint, every thousandth
 * page the commit that crossed it also copied the WAL into the database file and synced both (hundreds of
 * reads and writes and two fsyncs) on the event loop, before its callers' answers; at concurrency 1 that was
 * every 20 or so requests (bench/HISTORY.md, optimisation log). The writer keeps a checkpoint of its own at
 * WRITER_CHECKPOINT_PAGES, far above what the thread leaves behind, so the WAL stays bounded if it lags.
 */
export function startWalCheckpointer(file: string, options: { gatherMs?: number } = {}): WalCheckpointer {
  const state = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      file,
      state: state.buffer,
      gatherMs: options.gatherMs ?? 50,
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
    },
  });
  // Neither the thread nor its failure may keep the process up or take it down.
  worker.unref();
  worker.on('error', () => undefined);
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    committed() {
      Atomics.add(state, COMMITS, 1);
      Atomics.notify(state, COMMITS);
    },
    async close() {
      Atomics.store(state, STOP, 1);
      Atomics.notify(state, COMMITS);
      Atomics.notify(state, STOP);
      await exited;
    },
  };
}
