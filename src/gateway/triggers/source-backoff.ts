import { backoffDelay } from '../../backoff.js';
import type { TriggerSettings } from '../../config/index.js';

export type SourceBackoffSettings = TriggerSettings['source_backoff'];

/** Milliseconds to wait after the n-th consecutive failure (n >= 1): doubling from initial_seconds, capped. */
export function sourceBackoffMs(failures: number, settings: SourceBackoffSettings): number {
  return Math.round(backoffDelay(failures, { initial: settings.initial_seconds, max: settings.max_seconds }) * 1000);
}

/** Waits `ms`, or less when `signal` aborts (sleep.ts sleepUnlessAborted); injected so tests control time. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;
