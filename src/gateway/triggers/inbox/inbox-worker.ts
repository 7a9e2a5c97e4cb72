import { randomUUID } from 'node:crypto';
import { isoAfterSeconds, isoNow } from '../../../ids.js';
import type { InboxItem, InboxLogger, InboxOutcome, InboxStore, InboxWorkerSettings } from './inbox.types.js';

export interface InboxWorkerOptions<T extends InboxItem> {
  store: InboxStore<T>;
  settings: InboxWorkerSettings;
  /** Runs one claimed item's handlers; `stopping()` is true while the worker shuts down. */
  handle(item: T, stopping: () => boolean): Promise<InboxOutcome>;
  /** The item's id, the group its counters are kept under (webhook or trigger name) and its log fields. */
  describe(item: T): { id: string; group: string; log: Record<string, unknown> };
  /** Prefixes log lines, e.g. "webhook inbox". */
  label: string;
  logger: InboxLogger;
  now?: () => Date;
  /** Identifies this worker's claims; unique per process by default. */
  workerId?: string;
  /**
   * Take back every processing item at start, without waiting for its lease to lapse. Only right when
   * this process is the database's sole user (embedded SQLite); replicas sharing PostgreSQL rely on leases.
   */
  reclaimAllOnStart?: boolean;
}

/** Counters since this worker was created, per group. */
export interface InboxWorkerStats {
  group: string;
  runs_started: number;
}

export interface InboxWorker {
  /** Recovers items orphaned by a crash, then polls for due items until stop(). */
  start(): Promise<void>;
  /** Stops claiming and waits for the items in hand; runs failing meanwhile leave their item pending. */
  stop(): Promise<void>;
  /** Looks for due items now instead of at the next poll (after one is stored or retried). */
  wake(): void;
  /** Claims and handles due items until none is left; resolves with how many it handled. */
  processDue(): Promise<number>;
  stats(): InboxWorkerStats[];
}

/** A durable inbox's consumer: claims due items, runs their handlers, retries with backoff. */
export function createInboxWorker<T extends InboxItem>(options: InboxWorkerOptions<T>): InboxWorker {
  const { store, logger, settings, label } = options;
  const now = options.now ?? (() => new Date());
  const workerId = options.workerId ?? randomUUID();
  const inFlight = new Map<string, Promise<void>>();
  const counters = new Map<string, InboxWorkerStats>();
  let started = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let claiming: Promise<number> | undefined;
  let claimAgain = false;
  let looping = false;
  let lastRelease = 0;

  const leaseUntil = () => isoAfterSeconds(settings.lease_seconds, now());

  function count(group: string, item: T, outcome: InboxOutcome): void {
    const entry = counters.get(group) ?? { group, runs_started: 0 };
    entry.runs_started += outcome.runIds.length - item.run_ids.length;
    counters.set(group, entry);
  }

  async function handle(item: T): Promise<void> {
    const { id, group, log } = options.describe(item);
    try {
      const outcome = await options.handle(item, () => stopping);
      count(group, item, outcome);
      const settled = await store.settle(id, workerId, outcome);
      const fields = { ...log, attempt: item.attempts, status: outcome.status, run_ids: outcome.runIds, error: outcome.lastError ?? undefined };
      if (!settled) logger.warn(fields, `${label}: item was taken over by another worker; outcome discarded`);
      else if (outcome.status === 'failed') logger.error(fields, `${label}: item failed for good`);
      else if (outcome.lastError) logger.warn(fields, `${label}: attempt failed; will retry`);
      else logger.info(fields, `${label}: item handled`);
    } catch (error) {
      // The claim stays; its lease lapses and the item is picked up again.
      logger.error({ ...log, err: error }, `${label}: item could not be handled`);
    }
  }

  /**
   * Claims while there is capacity and due work. One loop at a time, so concurrent wakes never claim
   * beyond the concurrency limit; a wake that arrives while the loop runs makes it go round once more,
   * and a handler that finishes wakes it again, so a full worker can never miss work.
   */
  function claim(): Promise<number> {
    if (looping) {
      claimAgain = true;
      return claiming ?? Promise.resolve(0);
    }
    // Set and cleared synchronously around the loop, so no wake can fall between a finished loop and the next.
    looping = true;
    claiming = (async () => {
      let taken = 0;
      try {
        do {
          claimAgain = false;
          const capacity = settings.concurrency - inFlight.size;
          if (capacity <= 0 || stopping) break;
          const claimed = await store.claimDue({ now: isoNow(now()), workerId, leaseUntil: leaseUntil(), limit: capacity });
          for (const item of claimed) {
            const { id } = options.describe(item);
            const done = handle(item).finally(() => {
              inFlight.delete(id);
              if (started) claimInBackground();
            });
            inFlight.set(id, done);
          }
          taken += claimed.length;
          // A full batch means more may be due.
          if (claimed.length === capacity) claimAgain = true;
        } while (claimAgain && !stopping);
        return taken;
      } finally {
        looping = false;
      }
    })();
    return claiming;
  }

  function claimInBackground(): void {
    claim().catch((error: unknown) => logger.error({ err: error }, `${label}: claim failed`));
  }

  async function releaseStale(all = false): Promise<void> {
    lastRelease = now().getTime();
    const released = await store.releaseStale({ now: isoNow(now()), maxAttempts: settings.max_attempts, all });
    if (released > 0) logger.warn({ released }, `${label}: items left in processing by a stopped worker were taken back`);
  }

  async function tick(): Promise<void> {
    try {
      // Lapsed leases are looked for every half lease rather than on every poll.
      if (now().getTime() - lastRelease >= (settings.lease_seconds * 1000) / 2) await releaseStale();
      await claim();
    } catch (error) {
      logger.error({ err: error }, `${label}: poll failed`);
    } finally {
      if (started) schedule(settings.poll_interval_ms);
    }
  }

  function schedule(delayMs: number): void {
    clearTimeout(timer);
    timer = setTimeout(() => void tick(), delayMs);
    // The HTTP server keeps the process alive; a forgotten stop() must not.
    timer.unref();
  }

  function wake(): void {
    if (started) schedule(0);
  }

  return {
    async start() {
      if (started) return;
      stopping = false;
      await releaseStale(options.reclaimAllOnStart ?? false);
      started = true;
      heartbeat = setInterval(() => {
        store.renewLeases({ ids: [...inFlight.keys()], workerId, leaseUntil: leaseUntil() }).catch((error: unknown) => logger.error({ err: error }, `${label}: lease renewal failed`));
      }, (settings.lease_seconds * 1000) / 3);
      heartbeat.unref();
      schedule(0);
    },

    async stop() {
      started = false;
      stopping = true;
      clearTimeout(timer);
      await claiming;
      await Promise.allSettled([...inFlight.values()]);
      // Leases are renewed until the last item in hand is settled.
      clearInterval(heartbeat);
    },

    wake,

    async processDue() {
      await releaseStale();
      let handled = 0;
      for (;;) {
        handled += await claim();
        if (inFlight.size === 0) return handled;
        await Promise.race(inFlight.values());
      }
    },

    stats: () => [...counters.values()].map((entry) => ({ ...entry })),
  };
}
