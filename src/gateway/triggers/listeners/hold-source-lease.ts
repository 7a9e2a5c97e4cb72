import { isoNow } from '../../../ids.js';
import { sleepUnlessAborted } from '../../../sleep.js';

import type { SourceLeaseStore } from './source-lease.store.js';
import type { Logger } from '../../../logger.js';

export interface SourceLeaseOptions {
  store: SourceLeaseStore;
  /** `listener:<name>`. */
  key: string;
  /** This replica's id. */
  holder: string;
  ttlMs: number;
  logger: Logger;
  now?: () => Date;
}

export interface HeldLease {
  /** Where the previous holder (or this replica, before) stopped reading. */
  cursor: string | undefined;
  /** Resolves with the reason once the lease is lost (taken over, or not renewed before it lapsed); never after release(). */
  lost: Promise<Error>;
  /** Records the read position with the lease, in the background and in order. */
  saveCursor(cursor: string): void;
  /** Stops renewing and frees the lease at once for another replica, with the last cursor. */
  release(): Promise<void>;
}

/**
 * Waits until this replica holds the source's lease, calling onStandby while another replica does, then
 * renews it every third of its length. A holder that cannot renew stops reading when its lease lapses
 * (by its own clock, counted from before the write that took it), before another replica can take it
 * over, so two replicas never read at once. Resolves undefined when the signal aborts first.
 */
export async function holdSourceLease(
  options: SourceLeaseOptions,
  signal: AbortSignal,
  onStandby: () => void,
): Promise<HeldLease | undefined> {
  const { store, key, holder, ttlMs, logger } = options;
  const now = options.now ?? (() => new Date());
  const intervalMs = Math.max(50, Math.floor(ttlMs / 3));
  const until = () => isoNow(new Date(now().getTime() + ttlMs));
  let onAbort!: () => void;
  const stopped = new Promise<undefined>((resolve) => (onAbort = () => resolve(undefined)));
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    while (!signal.aborted) {
      const startedAt = now().getTime();
      let unreadable = false;
      const attempt = store.acquire({ key, holder, now: isoNow(now()), until: until() }).catch((error: unknown) => {
        logger.warn({ trigger: key, err: error }, 'source lease could not be read; trying again');
        unreadable = true;
        return undefined;
      });
      // A stalled database must not keep stop() waiting.
      const acquired = await Promise.race([attempt, stopped]);
      if (signal.aborted) {
        void attempt.then((won) => won && store.release({ key, holder, now: isoNow(now()) })).catch(() => undefined);
        return undefined;
      }
      if (acquired)
        return keep(
          { store, key, holder, ttlMs, logger, now, intervalMs, until },
          acquired.cursor ?? undefined,
          startedAt,
        );
      // Standby means another replica holds the lease, not that the database could not say.
      if (!unreadable) onStandby();
      await sleepUnlessAborted(intervalMs, signal);
    }
    return undefined;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

interface Holding {
  store: SourceLeaseStore;
  key: string;
  holder: string;
  ttlMs: number;
  logger: Logger;
  now: () => Date;
  intervalMs: number;
  until: () => string;
}

function keep(held: Holding, cursor: string | undefined, acquiredAt: number): HeldLease {
  const { store, key, holder, ttlMs, logger, now } = held;
  let settle!: (reason: Error) => void;
  const lost = new Promise<Error>((resolve) => (settle = resolve));
  let done = false;
  let latest = cursor;
  // A fifth of the lease (at most 2 s) early, for clock skew and the time closing the stream takes.
  const margin = Math.min(ttlMs / 5, 2000);
  const lapse = (since: number) =>
    setTimeout(
      () => lose(new Error('the source lease could not be renewed before it lapsed')),
      ttlMs - margin - (now().getTime() - since),
    );
  let fence = lapse(acquiredAt);
  const stop = () => {
    done = true;
    clearInterval(renewal);
    clearTimeout(fence);
  };
  const lose = (reason: Error) => {
    if (done) return;
    stop();
    settle(reason);
  };

  // Writes go one after another and each carries the latest cursor, so the stored cursor never moves back.
  let chain = Promise.resolve();
  let queued = false;
  const schedule = () => {
    if (queued || done) return;
    queued = true;
    chain = chain
      .then(async () => {
        queued = false;
        if (done) return;
        const sentAt = now().getTime();
        const ours = await store.renew({ key, holder, now: isoNow(now()), until: held.until(), cursor: latest });
        if (done) return;
        if (!ours) return lose(new Error('another replica took over the source lease'));
        clearTimeout(fence);
        fence = lapse(sentAt);
      })
      .catch((error: unknown) =>
        logger.warn({ trigger: key, err: error }, 'source lease renewal failed; trying again until it lapses'),
      );
  };
  const renewal = setInterval(schedule, held.intervalMs);

  return {
    cursor,
    lost,
    saveCursor(next) {
      latest = next;
      schedule();
    },
    async release() {
      if (done) return;
      stop();
      // Bounded, so a stalled database cannot hold up shutdown; an unreleased lease lapses on its own.
      const bound = Math.min(ttlMs, RELEASE_WAIT_MS);
      // A renewal still in flight would otherwise land after the release and hold the lease again.
      await within(chain, bound);
      const released = store.release({ key, holder, now: isoNow(now()), cursor: latest }).then(
        () => true,
        (error: unknown) => {
          logger.warn({ trigger: key, err: error }, 'source lease could not be released; it lapses on its own');
          return true;
        },
      );
      if (!(await within(released, bound)))
        logger.warn({ trigger: key }, 'source lease release is taking long; it lapses on its own');
    },
  };
}

const RELEASE_WAIT_MS = 2000;

/** True when the promise settles within `ms`. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
