import type { Logger } from '../logger.js';

const QUIET_MS = 30_000;

/** A Redis outage reports an error on every reconnect attempt: one line per 30 s is enough, with the count dropped. */
export function createBusErrorLog(log: Pick<Logger, 'warn'>, now: () => number = Date.now): (error: unknown) => void {
  let lastAt = -Infinity;
  let suppressed = 0;
  return (error) => {
    const at = now();
    if (at - lastAt < QUIET_MS) {
      suppressed += 1;
      return;
    }
    log.warn({ err: error, suppressed }, 'run event bus error');
    lastAt = at;
    suppressed = 0;
  };
}
