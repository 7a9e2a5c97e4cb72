import type { ChangedRunsFilter, RunRecord } from '../agents/index.js';
import { isoNow } from '../ids.js';

export type RunChangeType = 'run-created' | 'run-status-changed';

export interface RunChange {
  type: RunChangeType;
  run: RunRecord;
}

export type RunChangeListener = (change: RunChange) => void;

export interface RunChangeFeed {
  /**
   * Resolves once the listener is registered and the feed knows the current state: any run created or changed
   * after that reaches the listener. Returns the unsubscribe function.
   */
  subscribe(listener: RunChangeListener): Promise<() => void>;
  /** Stops the watcher (server shutdown). */
  close(): void;
}

export interface RunChangeFeedOptions {
  listChanged: (filter: ChangedRunsFilter) => Promise<RunRecord[]>;
  /** How often the store is read while anyone listens. Default 1 s. */
  intervalMs?: number;
  onError?: (error: unknown) => void;
  now?: () => number;
}

export const RUN_CHANGE_INTERVAL_MS = 1000;
/** Runs are read back this far before the last read: a replica's clock or its write queue may lag behind ours. */
const OVERLAP_MS = 10_000;
/** At most this many runs per read (active ones first by recency); more active runs than this are not followed. */
const READ_LIMIT = 500;

/**
 * Run creations and status changes of every replica, read from the shared store by one watcher per process
 * (one query per interval however many clients listen, and none when nobody does). The run event bus has a
 * stream per run and no channel of all runs; the store already sees every replica's writes.
 */
export function createRunChangeFeed(options: RunChangeFeedOptions): RunChangeFeed {
  const intervalMs = options.intervalMs ?? RUN_CHANGE_INTERVAL_MS;
  const now = options.now ?? Date.now;
  const listeners = new Set<RunChangeListener>();
  /** Status of each run read recently; active ones are asked for by id until they are seen to end. */
  let known = new Map<string, RunRecord['status']>();
  let timer: NodeJS.Timeout | undefined;
  let ready: Promise<void> | undefined;
  let lastRead = 0;

  async function read(emit: boolean): Promise<void> {
    const startedAt = now();
    const active = [...known].filter(([, status]) => status === 'running' || status === 'paused').map(([id]) => id);
    const runs = await options.listChanged({
      since: isoNow(new Date((lastRead || startedAt) - OVERLAP_MS)),
      runIds: active,
      limit: READ_LIMIT,
    });
    lastRead = startedAt;
    const next = new Map<string, RunRecord['status']>();
    for (const run of runs) {
      next.set(run.run_id, run.status);
      const before = known.get(run.run_id);
      if (!emit || before === run.status) continue;
      const change: RunChange = { type: before === undefined ? 'run-created' : 'run-status-changed', run };
      for (const listener of listeners) listener(change);
    }
    known = next;
  }

  function schedule(): void {
    timer = setTimeout(() => {
      read(true)
        .catch((error: unknown) => options.onError?.(error))
        .finally(() => {
          if (listeners.size > 0) schedule();
          else stop();
        });
    }, intervalMs);
    timer.unref();
  }

  function stop(): void {
    clearTimeout(timer);
    timer = undefined;
    ready = undefined;
    known = new Map();
    lastRead = 0;
  }

  return {
    async subscribe(listener) {
      if (!ready) {
        // The first read is the baseline: what exists now is not news.
        ready = read(false).then(schedule);
        ready.catch(() => stop());
      }
      await ready;
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    close() {
      listeners.clear();
      stop();
    },
  };
}
