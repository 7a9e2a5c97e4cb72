import { DatabaseUnavailableError } from '../errors.js';

/**
 * Whether the database answers, as its last statements said: out of reach from a statement that failed for a
 * lost or refused connection to the next one that succeeded, on any connection. New work checks it before it
 * starts (a run refused with 503 before its model call), so while it says "out of reach" a probe is sent now
 * and then: with nothing else running, the refusals would otherwise keep it out of reach for good.
 */
export interface Reachability {
  /** The last connection loss's error while the database is out of reach, else undefined. */
  outage(): DatabaseUnavailableError | undefined;
  lost(error: DatabaseUnavailableError): void;
  reached(): void;
}

/** How often a caller that finds the database out of reach starts a probe, at most. */
const PROBE_INTERVAL_MS = 1_000;

export function createReachability(probe: () => Promise<unknown>): Reachability {
  let outage: DatabaseUnavailableError | undefined;
  let probedAt = 0;
  return {
    outage() {
      if (outage && Date.now() - probedAt >= PROBE_INTERVAL_MS) {
        probedAt = Date.now();
        // Its outcome reaches lost() or reached() through the pool like any statement's.
        void probe().catch(() => undefined);
      }
      return outage;
    },
    lost(error) {
      outage = error;
    },
    reached() {
      outage = undefined;
    },
  };
}
