import { isoNow } from '../../ids.js';
import type { RunEventBus } from '../../bus/index.js';
import type { RunCommands } from './run-commands.js';

import type { LiveRun } from './run-handle.js';
import type { RunStore } from '../records/run.store.js';
import type { Logger } from '../../logger.js';

export interface RunLeaseOptions {
  live: ReadonlyMap<string, LiveRun>;
  store: RunStore;
  commands: RunCommands;
  /** Takes over or interrupts the runs of dead processes: those whose heartbeat is older than `staleBefore`. */
  sweep(now: string, staleBefore: string): Promise<void>;
  intervalMs: number;
  /** A run whose heartbeat is older than this has lost its executor and is marked interrupted. */
  staleMs: number;
  log?: Logger;
}

/** How often a process refreshes its runs' heartbeats in multi-process mode, and when another process gives up on them. */
export const RUN_LEASE_INTERVAL_MS = 5_000;
export const RUN_LEASE_STALE_MS = 30_000;

/**
 * Multi-process mode only. Every interval: the heartbeat of this process's runs, the commands persisted
 * for them (a paused run has no checkpoint to notice a resume whose message was lost), and the runs of
 * processes that died, taken over or marked interrupted by whichever process looks first. Returns the stop function.
 */
export function startRunLease(options: RunLeaseOptions): () => void {
  let busy = false;
  // After a failed tick (the database out of reach), no replica could write heartbeats either: every run looks
  // stale once it is back. Sweeping waits a whole `staleMs` of ticks that worked, so live runs' owners (their
  // heartbeats every `intervalMs`) are heard from before anyone takes their runs over.
  let failed = false;
  let sweepFrom = 0;
  const tick = async () => {
    const now = Date.now();
    const runIds = [...options.live.keys()];
    if (runIds.length > 0) {
      await options.store.touch(runIds, isoNow(new Date(now)));
      const states = await options.store.controlStates(runIds);
      for (const run of options.live.values()) options.commands.reconcile(run, states.get(run.runId));
    }
    if (failed) {
      failed = false;
      sweepFrom = now + options.staleMs;
    }
    if (now >= sweepFrom) await options.sweep(isoNow(new Date(now)), isoNow(new Date(now - options.staleMs)));
    // Budget reservations of runs that ended on a dead replica go back to their accounts.
    await options.store.releaseEndedBudgetHolds();
  };
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    tick()
      .catch((error: unknown) => {
        failed = true;
        options.log?.warn({ err: error }, 'run heartbeat failed');
      })
      .finally(() => (busy = false));
  }, options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Ends the event stream of runs whose process died, so every client attached through another replica
 * gets the terminal event instead of keep-alives forever.
 */
export async function publishInterrupted(bus: RunEventBus, runIds: readonly string[]): Promise<void> {
  await Promise.all(
    runIds.map((runId) =>
      bus.publish(runId, {
        type: 'run-error',
        code: 'interrupted',
        message: 'The server running this run stopped before it finished',
      }),
    ),
  );
}
