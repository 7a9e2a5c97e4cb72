import { randomUUID } from 'node:crypto';
import { retryWhileUnreachable } from '../../../db/index.js';
import { isoAfterSeconds, isoNow } from '../../../ids.js';
import type { InboxStore } from './inbox.store.js';
import type { InboxItem, InboxLaneSettings, InboxOutcome, InboxSourceKind } from './inbox.types.js';
import type { Logger } from '../../../logger.js';

/** A share of the worker: the source kinds it takes, with their own concurrency and retry policy. */
export interface InboxLane {
  kinds: readonly InboxSourceKind[];
  settings: InboxLaneSettings;
}

export interface InboxWorkerOptions {
  store: InboxStore;
  /** A flood of one lane's items never takes another lane's capacity (webhooks vs pollers and listeners). */
  lanes: readonly InboxLane[];
  /** Runs one claimed item's handlers; `stopping()` is true while the worker shuts down. */
  handle(item: InboxItem, stopping: () => boolean): Promise<InboxOutcome>;
  logger: Logger;
  now?: () => Date;
  /** Identifies this worker's claims; unique per process by default. */
  workerId?: string;
  /**
   * Take back every running item at start, without waiting for its lease to lapse. Only right when this
   * process is the database's sole user (embedded SQLite); replicas sharing PostgreSQL rely on leases.
   */
  reclaimAllOnStart?: boolean;
}

/** Runs started since this worker was created, per source (`<kind>:<name>`). */
export interface InboxWorkerStats {
  group: string;
  runs_started: number;
}

export interface InboxWorker {
  /** Recovers items orphaned by a crash, then claims due items until stop(). */
  start(): Promise<void>;
  /** Stops claiming and waits for the items in hand; runs failing meanwhile leave their item pending. */
  stop(): Promise<void>;
  /** Claims now: a new item was stored or queued again. */
  wake(): void;
  /** Claims and handles due items until none is left; resolves with how many it handled. */
  processDue(): Promise<number>;
  stats(): InboxWorkerStats[];
}

const LABEL = 'inbox';

/**
 * The durable inbox's consumer. Claiming is driven by three wake-ups: an item stored (wake), a handler
 * finished (capacity freed) and a timer set for the next due retry, capped at the poll interval so items
 * stored by other replicas and lapsed leases are seen too. Capacity is derived from the items in hand.
 */
export function createInboxWorker(options: InboxWorkerOptions): InboxWorker {
  const { store, logger, lanes } = options;
  const now = options.now ?? (() => new Date());
  const workerId = options.workerId ?? randomUUID();
  const inHand = lanes.map(() => new Map<string, Promise<void>>());
  const counters = new Map<string, InboxWorkerStats>();
  const pollMs = Math.min(...lanes.map((lane) => lane.settings.poll_interval_ms));
  const leaseMs = Math.min(...lanes.map((lane) => lane.settings.lease_seconds)) * 1000;
  let started = false;
  let stopping = false;
  const stopped = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let claiming: Promise<number> | undefined;
  let looping = false;
  let claimAgain = false;
  let lastRelease = 0;

  async function handle(item: InboxItem): Promise<void> {
    const group = `${item.source_kind}:${item.source_name}`;
    const fields = { item_id: item.item_id, source: group, event: item.event, attempt: item.attempts };
    try {
      const outcome = await options.handle(item, () => stopping);
      const entry = counters.get(group) ?? { group, runs_started: 0 };
      entry.runs_started += outcome.runIds.length - item.run_ids.length;
      counters.set(group, entry);
      // The outcome is known and the claim held (its lease renewed until settled): a database out of reach is
      // waited out, or the item would run again once its lease lapsed.
      const settled = await retryWhileUnreachable(() => store.settle(item.item_id, workerId, outcome), {
        signal: stopped.signal,
      });
      // Object.assign, not `{ ...fields, … }`: V8 gives every object that spread adds fields to a map of its own.
      const logged = Object.assign({}, fields, {
        status: outcome.status,
        run_ids: outcome.runIds,
        error: outcome.lastError ?? undefined,
      });
      if (!settled) logger.warn(logged, `${LABEL}: item was taken over by another worker; outcome discarded`);
      else if (outcome.status === 'dead')
        logger.error(logged, `${LABEL}: item failed every attempt and is kept as a dead letter`);
      else if (outcome.lastError) logger.warn(logged, `${LABEL}: attempt failed; will retry`);
      else logger.info(logged, `${LABEL}: item handled`);
    } catch (error) {
      // The claim stays; its lease lapses and the item is picked up again.
      logger.error({ ...fields, err: error }, `${LABEL}: item could not be handled`);
    }
  }

  async function claimLane(index: number): Promise<{ taken: number; full: boolean }> {
    const lane = lanes[index];
    const held = inHand[index];
    const capacity = lane.settings.concurrency - held.size;
    if (capacity <= 0) return { taken: 0, full: false };
    const leaseUntil = isoAfterSeconds(lane.settings.lease_seconds, now());
    const claimed = await store.claimDue({
      now: isoNow(now()),
      workerId,
      leaseUntil,
      limit: capacity,
      kinds: lane.kinds,
    });
    for (const item of claimed) {
      const done = handle(item).finally(() => {
        held.delete(item.item_id);
        if (started) claimInBackground();
      });
      held.set(item.item_id, done);
    }
    // A full batch means more may be due.
    return { taken: claimed.length, full: claimed.length === capacity };
  }

  /**
   * Claims for every lane while there is capacity and due work. One loop at a time, so concurrent wakes
   * never claim beyond a lane's concurrency; a wake during the loop makes it go round once more.
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
          if (stopping) break;
          for (let index = 0; index < lanes.length; index++) {
            const round = await claimLane(index);
            taken += round.taken;
            if (round.full) claimAgain = true;
          }
        } while (claimAgain && !stopping);
        return taken;
      } finally {
        looping = false;
      }
    })();
    return claiming;
  }

  function claimInBackground(): void {
    claim().catch((error: unknown) => logger.error({ err: error }, `${LABEL}: claim failed`));
  }

  async function releaseStale(all = false): Promise<void> {
    lastRelease = now().getTime();
    for (const lane of lanes) {
      const released = await store.releaseStale({
        now: isoNow(now()),
        maxAttempts: lane.settings.max_attempts,
        kinds: lane.kinds,
        all,
      });
      if (released > 0)
        logger.warn(
          { released, kinds: lane.kinds },
          `${LABEL}: items left running by a stopped worker were taken back`,
        );
    }
  }

  /** The timer's wake-up: lapsed leases every half lease, a claim, then sleep until the next due retry or poll. */
  async function tick(): Promise<void> {
    let delayMs = pollMs;
    try {
      if (now().getTime() - lastRelease >= leaseMs / 2) await releaseStale();
      await claim();
      const due = await store.nextDueAt(lanes.flatMap((lane) => lane.kinds));
      if (due !== undefined) delayMs = Math.max(0, Math.min(pollMs, Date.parse(due) - now().getTime()));
    } catch (error) {
      logger.error({ err: error }, `${LABEL}: poll failed`);
    } finally {
      if (started) schedule(delayMs);
    }
  }

  function schedule(delayMs: number): void {
    clearTimeout(timer);
    timer = setTimeout(() => void tick(), delayMs);
    // The HTTP server keeps the process alive; a forgotten stop() must not.
    timer.unref();
  }

  return {
    async start() {
      if (started) return;
      stopping = false;
      await releaseStale(options.reclaimAllOnStart ?? false);
      started = true;
      heartbeat = setInterval(() => {
        lanes.forEach((lane, index) => {
          const ids = [...inHand[index].keys()];
          const leaseUntil = isoAfterSeconds(lane.settings.lease_seconds, now());
          store
            .renewLeases({ ids, workerId, leaseUntil })
            .catch((error: unknown) => logger.error({ err: error }, `${LABEL}: lease renewal failed`));
        });
      }, leaseMs / 3);
      heartbeat.unref();
      schedule(0);
    },

    async stop() {
      started = false;
      stopping = true;
      stopped.abort();
      clearTimeout(timer);
      // A claim that failed (the database out of reach) was logged already; stopping goes on.
      await claiming?.catch(() => undefined);
      await Promise.allSettled(inHand.flatMap((held) => [...held.values()]));
      // Leases are renewed until the last item in hand is settled.
      clearInterval(heartbeat);
    },

    wake() {
      if (started) claimInBackground();
    },

    async processDue() {
      await releaseStale();
      let handled = 0;
      for (;;) {
        const taken = await claim();
        handled += taken;
        const pending = inHand.flatMap((held) => [...held.values()]);
        // Handlers may all have finished while the claim ran: only a claim that found nothing ends the round.
        if (pending.length > 0) await Promise.race(pending);
        else if (taken === 0) return handled;
      }
    },

    stats: () => [...counters.values()].map((entry) => ({ ...entry })),
  };
}
