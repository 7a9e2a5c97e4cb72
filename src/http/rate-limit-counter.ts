/** Every window is a minute long, starting with its subject's first use (as @fastify/rate-limit counts). */
export const RATE_LIMIT_WINDOW_MS = 60_000;

/** One limit a request must pass. */
export interface RateLimitCheck {
  /** The counter, e.g. `token:tok_1:requests`. */
  key: string;
  limit: number;
  /** `requests`: the request takes one. `tokens`: admitted while below the limit; model calls add to it later. */
  kind: 'requests' | 'tokens';
}

/** A counter's state after a take: what is used and when its window ends. */
export interface RateLimitWindow {
  used: number;
  resetMs: number;
}

export interface RateLimitTake {
  /** Index of the first check that refused; nothing was taken then. */
  refused?: number;
  /** One per check, in order. */
  windows: RateLimitWindow[];
}

/**
 * Counters per minute, in this process or shared by every replica (Redis). A take is all or nothing: a
 * request refused by one limit is counted by none.
 */
export interface RateLimitCounter {
  take(checks: readonly RateLimitCheck[]): Promise<RateLimitTake>;
  /** Adds model tokens to the counters' current windows. */
  add(keys: readonly string[], amount: number): Promise<void>;
  close(): Promise<void>;
}

/** Above this many counters, expired ones are dropped before the next take. */
const SWEEP_ABOVE = 10_000;

/** The counters of one process: right for a single replica, per replica when several share nothing. */
export function createMemoryRateLimitCounter(now: () => number = Date.now): RateLimitCounter {
  const counters = new Map<string, { used: number; resetAt: number }>();
  const current = (key: string, at: number) => {
    const counter = counters.get(key);
    return counter && counter.resetAt > at ? counter : undefined;
  };
  const open = (key: string, at: number) => {
    let counter = current(key, at);
    if (!counter) counters.set(key, (counter = { used: 0, resetAt: at + RATE_LIMIT_WINDOW_MS }));
    return counter;
  };

  return {
    take(checks) {
      const at = now();
      if (counters.size > SWEEP_ABOVE)
        for (const [key, counter] of counters) if (counter.resetAt <= at) counters.delete(key);
      const before = checks.map((check) => current(check.key, at));
      const refused = checks.findIndex((check, index) => !fits(check, before[index]?.used ?? 0));
      if (refused >= 0) {
        const windows = before.map((counter) => windowOf(counter, at));
        return Promise.resolve({ refused, windows });
      }
      const windows = checks.map((check) => {
        const counter = open(check.key, at);
        if (check.kind === 'requests') counter.used += 1;
        return windowOf(counter, at);
      });
      return Promise.resolve({ windows });
    },
    add(keys, amount) {
      const at = now();
      for (const key of keys) open(key, at).used += amount;
      return Promise.resolve();
    },
    close() {
      counters.clear();
      return Promise.resolve();
    },
  };
}

/** Whether a check passes with `used` already counted in its window. */
export function fits(check: RateLimitCheck, used: number): boolean {
  return check.kind === 'requests' ? used + 1 <= check.limit : used < check.limit;
}

function windowOf(counter: { used: number; resetAt: number } | undefined, at: number): RateLimitWindow {
  return counter ? { used: counter.used, resetMs: counter.resetAt - at } : { used: 0, resetMs: RATE_LIMIT_WINDOW_MS };
}
