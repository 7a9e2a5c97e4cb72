import { randomUUID } from 'node:crypto';
import { backoffDelay } from '../backoff.js';
import { isoAfterSeconds, isoNow } from '../ids.js';
import type { Logger } from '../logger.js';

/** A claim: move up to `limit` due rows to running for `workerId`, until `leaseUntil`. */
export interface LeaseClaim {
  now: string;
  workerId: string;
  leaseUntil: string;
  limit: number;
}

/** A share of the worker's capacity, with its own lease length and poll interval. */
export interface LeasedLane {
  concurrency: number;
  lease_seconds: number;
  poll_interval_ms: number;
}

/** The table a leased worker claims from (an outbox or an inbox store), one lane at a time. */
export interface LeaseQueue<T> {
  /** Claims due rows of lane `lane`; each row is claimed by one worker only. */
  claimDue(lane: number, claim: LeaseClaim): Promise<T[]>;
  /** When the earliest pending row is due; undefined when none is. */
  nextDueAt(): Promise<string | undefined>;
  /** Extends the lease of the rows this worker holds (long handlers); without it, a lease only lapses. */
  renewLeases?(lane: number, ids: string[], workerId: string, leaseUntil: string): Promise<void>;
  /**
   * Returns running rows whose lease lapsed (`all`: every one, for a process that knows it is alone) to
   * pending; without it, `claimDue` takes lapsed rows itself. Returns how many moved.
   */
  releaseStale?(lane: number, now: string, all: boolean): Promise<number>;
}

export interface LeasedWorkerOptions<T> {
  /** Names the worker in its log lines (`inbox`, `a2a push`). */
  name: string;
  queue: LeaseQueue<T>;
  idOf(item: T): string;
  lanes: readonly LeasedLane[];
  /**
   * Handles one claimed row and settles it (with this worker's id). A throw is logged and the claim kept: its
   * lease lapses and the row is claimed again. `stopping()` is true while the worker shuts down.
   */
  handle(item: T, workerId: string, stopping: () => boolean): Promise<void>;
  logger: Logger;
  now?: () => Date;
  /** Identifies this worker's claims; unique per process by default. */
  workerId?: string;
  /** Take back every running row at start (releaseStale with `all`): only right for the database's sole user. */
  reclaimAllOnStart?: boolean;
  /** The shortest wait before the next claim when a row is due already (a full worker polls no faster). */
  minDelayMs?: number;
}

export interface LeasedWorker {
  readonly workerId: string;
  /** Takes back rows a stopped worker left running, then claims due rows until stop(). */
  start(): Promise<void>;
  /** Stops claiming and waits for the rows in hand (their leases renewed until each is settled). */
  stop(): Promise<void>;
  /** Claims now: a row was stored or queued again. */
  wake(): void;
  /** Claims and handles due rows until none is left; resolves with how many it handled. */
  processDue(): Promise<number>;
}

/**
 * One consumer of a table of leased rows, for the trigger inbox and the A2A push outbox. Claiming is driven
 * by three wake-ups: a row stored (wake), a handler finished (capacity freed) and a timer set for the next
 * due retry, capped at the poll interval so rows stored by other replicas and lapsed leases are seen too.
 * Capacity is derived from the rows in hand.
 */
export function createLeasedWorker<T>(options: LeasedWorkerOptions<T>): LeasedWorker {
  const { queue, logger, lanes, name } = options;
  const now = options.now ?? (() => new Date());
  const workerId = options.workerId ?? randomUUID();
  const inHand = lanes.map(() => new Map<string, Promise<void>>());
  const pollMs = Math.min(...lanes.map((lane) => lane.poll_interval_ms));
  const leaseMs = Math.min(...lanes.map((lane) => lane.lease_seconds)) * 1000;
  let started = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let claiming: Promise<number> | undefined;
  let looping = false;
  let claimAgain = false;
  let lastRelease = 0;

  async function handle(item: T): Promise<void> {
    try {
      await options.handle(item, workerId, () => stopping);
    } catch (error) {
      // The claim stays; its lease lapses and the row is picked up again.
      logger.error({ id: options.idOf(item), err: error }, `${name}: could not be handled; its lease will lapse`);
    }
  }

  async function claimLane(index: number): Promise<{ taken: number; full: boolean }> {
    const held = inHand[index];
    const capacity = lanes[index].concurrency - held.size;
    if (capacity <= 0) return { taken: 0, full: false };
    const claimed = await queue.claimDue(index, {
      now: isoNow(now()),
      workerId,
      leaseUntil: isoAfterSeconds(lanes[index].lease_seconds, now()),
      limit: capacity,
    });
    for (const item of claimed) {
      const id = options.idOf(item);
      const done = handle(item).finally(() => {
        held.delete(id);
        if (started) claimInBackground();
      });
      held.set(id, done);
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
    claim().catch((error: unknown) => logger.error({ err: error }, `${name}: claim failed`));
  }

  async function releaseStale(all = false): Promise<void> {
    if (!queue.releaseStale) return;
    lastRelease = now().getTime();
    for (let index = 0; index < lanes.length; index++) {
      const released = await queue.releaseStale(index, isoNow(now()), all);
      if (released > 0)
        logger.warn({ released, lane: index }, `${name}: rows left running by a stopped worker were taken back`);
    }
  }

  /** The timer's wake-up: lapsed leases every half lease, a claim, then sleep until the next due retry or poll. */
  async function tick(): Promise<void> {
    let delayMs = pollMs;
    try {
      if (now().getTime() - lastRelease >= leaseMs / 2) await releaseStale();
      await claim();
      const due = await queue.nextDueAt();
      if (due !== undefined)
        delayMs = Math.max(options.minDelayMs ?? 0, Math.min(pollMs, Date.parse(due) - now().getTime()));
    } catch (error) {
      logger.error({ err: error }, `${name}: poll failed`);
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

  function renewLeases(renew: NonNullable<LeaseQueue<T>['renewLeases']>): void {
    lanes.forEach((lane, index) => {
      const ids = [...inHand[index].keys()];
      if (ids.length === 0) return;
      renew(index, ids, workerId, isoAfterSeconds(lane.lease_seconds, now())).catch((error: unknown) =>
        logger.error({ err: error }, `${name}: lease renewal failed`),
      );
    });
  }

  const inHandAll = () => inHand.flatMap((held) => [...held.values()]);

  return {
    workerId,
    async start() {
      if (started) return;
      stopping = false;
      await releaseStale(options.reclaimAllOnStart ?? false);
      // stop() called while the release ran wins.
      if (stopping) return;
      started = true;
      const renew = queue.renewLeases?.bind(queue);
      if (renew) {
        heartbeat = setInterval(() => renewLeases(renew), leaseMs / 3);
        heartbeat.unref();
      }
      schedule(0);
    },

    async stop() {
      started = false;
      stopping = true;
      clearTimeout(timer);
      // A claim that failed (the database out of reach) was logged already; stopping goes on.
      await claiming?.catch(() => undefined);
      await Promise.allSettled(inHandAll());
      // Leases are renewed until the last row in hand is settled.
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
        const pending = inHandAll();
        // Handlers may all have finished while the claim ran: only a claim that found nothing ends the round.
        if (pending.length > 0) await Promise.race(pending);
        else if (taken === 0) return handled;
      }
    },
  };
}

/** How failed attempts are retried: up to `max_attempts` in all, the delay doubling from `backoff_seconds`. */
export interface RetryPolicy {
  max_attempts: number;
  backoff_seconds: number;
  max_backoff_seconds: number;
}

/**
 * What becomes of a row whose attempt `attempts` failed: a dead letter once every attempt is used, else
 * pending again after the backoff.
 */
export function afterFailedAttempt(
  attempts: number,
  policy: RetryPolicy,
  now: Date = new Date(),
): { status: 'dead'; finishedAt: string } | { status: 'pending'; nextAttemptAt: string } {
  if (attempts >= policy.max_attempts) return { status: 'dead', finishedAt: isoNow(now) };
  const delay = backoffDelay(attempts, { initial: policy.backoff_seconds, max: policy.max_backoff_seconds });
  return { status: 'pending', nextAttemptAt: isoAfterSeconds(delay, now) };
}
