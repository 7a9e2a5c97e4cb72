import { afterEach, describe, expect, it, vi } from 'vitest';
import { startRunLease, type RunLeaseOptions } from '../../src/agents/control/run-lease.js';
import { DatabaseUnavailableError } from '../../src/errors.js';

const INTERVAL_MS = 100;
const STALE_MS = 1_000;

describe('the run lease after a database outage', () => {
  afterEach(() => vi.useRealTimers());

  it('takes no run over until a whole lease of working ticks has passed, so live owners are heard first', async () => {
    vi.useFakeTimers();
    let reachable = true;
    const sweeps: number[] = [];
    const unlessDown = async () => {
      if (!reachable) throw new DatabaseUnavailableError();
    };
    const options = {
      live: new Map(),
      store: { touch: unlessDown, controlStates: async () => new Map(), releaseEndedBudgetHolds: unlessDown },
      commands: { reconcile: () => undefined },
      sweep: async () => {
        await unlessDown();
        sweeps.push(Date.now());
      },
      intervalMs: INTERVAL_MS,
      staleMs: STALE_MS,
    } as unknown as RunLeaseOptions;
    const stop = startRunLease(options);
    try {
      await vi.advanceTimersByTimeAsync(INTERVAL_MS);
      expect(sweeps).toHaveLength(1);

      reachable = false;
      await vi.advanceTimersByTimeAsync(3 * INTERVAL_MS);
      reachable = true;
      const back = Date.now();
      await vi.advanceTimersByTimeAsync(STALE_MS + 2 * INTERVAL_MS);
      const after = sweeps.slice(1);
      expect(after.length).toBeGreaterThan(0);
      // The first tick that worked after the outage was at back + INTERVAL_MS; sweeping waits a lease from then.
      expect(Math.min(...after)).toBeGreaterThanOrEqual(back + INTERVAL_MS + STALE_MS);
    } finally {
      stop();
    }
  });
});
