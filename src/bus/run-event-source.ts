import type { RunEvent } from './events.js';

/** What `take()` answers when the next event has not been published yet. */
export const NOT_YET: unique symbol = Symbol('not yet');

/**
 * A subscription that can also be read without a promise per event: the AG-UI fan-out reads a run's
 * events for a thousand subscribers inside the publish that brings them, in one synchronous pass, instead
 * of resuming a thousand async iterators (one promise and one microtask each, per event). It is still an
 * AsyncIterable, so every other caller reads it as before.
 */
export interface SyncRunEventSource extends AsyncIterableIterator<RunEvent> {
  /**
   * The next event if it is here, NOT_YET when it is not yet, undefined once the subscription ended (after
   * the terminal event, on abort or close). Throws what the iteration would (subscriber_lagging, a failed log).
   */
  take(): RunEvent | undefined | typeof NOT_YET;
  /**
   * Calls `wake` once, synchronously from the publish that brings the next event (or the abort, close or
   * failure that ends the subscription). Call take() again from it; nothing is delivered to it.
   */
  onReadable(wake: () => void): void;
  /** Stops reading (the iterator's return()): releases what the subscription holds. */
  close(): void;
}

export function isSyncRunEventSource(source: AsyncIterable<RunEvent>): source is SyncRunEventSource {
  return typeof (source as Partial<SyncRunEventSource>).take === 'function';
}
