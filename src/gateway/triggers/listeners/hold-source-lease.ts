import { isoNow } from '../../../ids.js';
import { abortableSleep } from '../source-backoff.js';
import type { TriggerLogger } from '../trigger.types.js';
import type { SourceLeaseStore } from './source-lease.store.js';

export interface SourceLeaseOptions {
  store: SourceLeaseStore;
  /** `listener:<name>`. */
  key: string;
  /** This replica's id. */
  holder: string;
  ttlMs: number;
  logger: TriggerLogger;
  now?: () => Date;
}

export interface HeldLease {
  /** Where the previous holder (or this replica, before) stopped reading. */
  cursor: string | undefined;
  /** Resolves with the reason once the lease is lost (taken over, or not renewed before it lapsed); never after release(). */
  lost: Promise<Error>;
  /** Records the read position (and renews); false when another replica holds the lease now. */
  saveCursor(cursor: string): Promise<boolean>;
  /** Stops renewing and frees the lease at once for another replica, keeping the cursor. */
  release(): Promise<void>;
}

/**
 * Waits until this replica holds the source's lease, calling onStandby while another replica does, then
 * renews it every third of its length. A holder that cannot renew stops reading when its lease lapses
 * (by its own clock), before another replica can take it, so two replicas never read at once.
 * Resolves undefined when the signal aborts first.
 */
export async function holdSourceLease(options: SourceLeaseOptions, signal: AbortSignal, onStandby: () => void): Promise<HeldLease | undefined> {
  const { store, key, holder, ttlMs, logger } = options;
  const now = options.now ?? (() => new Date());
  const intervalMs = Math.max(50, Math.floor(ttlMs / 3));
  const until = () => isoNow(new Date(now().getTime() + ttlMs));

  let acquired: { cursor: string | null } | undefined;
  while (!signal.aborted) {
    const startedAt = now().getTime();
    acquired = await store.acquire({ key, holder, now: isoNow(now()), until: until() }).catch((error: unknown) => {
      logger.warn({ trigger: key, err: error }, 'source lease could not be read; trying again');
      return undefined;
    });
    if (acquired) {
      if (signal.aborted) await store.release({ key, holder, now: isoNow(now()) }).catch(() => undefined);
      else return keep(acquired.cursor ?? undefined, startedAt);
      return undefined;
    }
    onStandby();
    await abortableSleep(intervalMs, signal);
  }
  return undefined;

  function keep(cursor: string | undefined, acquiredAt: number): HeldLease {
    let settle!: (reason: Error) => void;
    const lost = new Promise<Error>((resolve) => (settle = resolve));
    let done = false;
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
    // Counted from before the write that took the lease, so this clock never runs past the stored expiry.
    let fence = setTimeout(() => lose(new Error('the source lease could not be renewed before it lapsed')), ttlMs - (now().getTime() - acquiredAt));
    const renewed = (sentAt: number) => {
      clearTimeout(fence);
      fence = setTimeout(() => lose(new Error('the source lease could not be renewed before it lapsed')), ttlMs - (now().getTime() - sentAt));
    };
    const write = async (latest?: string): Promise<boolean> => {
      const sentAt = now().getTime();
      const ours = await store.renew({ key, holder, now: isoNow(now()), until: until(), cursor: latest });
      if (done) return false;
      if (!ours) lose(new Error('another replica took over the source lease'));
      else renewed(sentAt);
      return ours;
    };
    const renewal = setInterval(() => {
      write().catch((error: unknown) => logger.warn({ trigger: key, err: error }, 'source lease renewal failed; trying again until it lapses'));
    }, intervalMs);
    return {
      cursor,
      lost,
      saveCursor: (latest) => (done ? Promise.resolve(false) : write(latest)),
      async release() {
        if (done) return;
        stop();
        await store.release({ key, holder, now: isoNow(now()) }).catch((error: unknown) => logger.warn({ trigger: key, err: error }, 'source lease could not be released; it lapses on its own'));
      },
    };
  }
}
