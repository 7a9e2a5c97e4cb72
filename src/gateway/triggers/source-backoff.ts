import type { TriggerSettings } from '../../config/index.js';

export type SourceBackoffSettings = TriggerSettings['source_backoff'];

/** Milliseconds to wait after the n-th consecutive failure (n >= 1): doubling from initial_seconds, capped. */
export function sourceBackoffMs(failures: number, settings: SourceBackoffSettings): number {
  return Math.round(Math.min(settings.initial_seconds * 2 ** Math.max(0, failures - 1), settings.max_seconds) * 1000);
}

/** Waits `ms`, or less when `signal` aborts; injected so tests control time instead of waiting. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export const abortableSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
