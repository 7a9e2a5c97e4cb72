import { isTerminalEvent, type RunEvent } from './events.js';
import { createSubscriberLagError } from './subscriber-lag-error.js';

/**
 * One run's bounded, ordered window of events, shared by all its readers. Each reader keeps only a
 * cursor (a seq), so a thousand readers cost a thousand numbers, never a thousand copies, and a slow
 * reader never holds up the writer: once it is more than half the window behind it fails instead
 * (`subscriber_lagging`), while the events after its cursor are still here for it to re-attach from.
 */
export class RunLog {
  readonly runId: string;
  readonly limit: number;
  private readonly events: RunEvent[] = [];
  /** The seq just before the first event this log will ever hold (a Redis tail starts mid-stream). */
  private readonly startSeq: number;
  private waiters = new Set<() => void>();
  private terminalSeq: number | undefined;
  private closed = false;
  private failure: Error | undefined;

  constructor(runId: string, limit: number, startSeq = 0) {
    this.runId = runId;
    this.limit = limit;
    this.startSeq = startSeq;
  }

  /** How far behind the newest event a reader may fall: half the window, so it can still resume where it was. */
  get lagLimit(): number {
    return Math.max(1, Math.floor(this.limit / 2));
  }

  get lastSeq(): number {
    return this.events.at(-1)?.seq ?? this.startSeq;
  }

  /** Seq of the oldest event a reader can still get here. */
  get firstAvailableSeq(): number {
    return this.events[0]?.seq ?? this.startSeq + 1;
  }

  get finished(): boolean {
    return this.terminalSeq !== undefined;
  }

  /** Appends the next event (seq must be lastSeq + 1) and wakes waiting readers. */
  push(event: RunEvent): void {
    this.events.push(event);
    // Array#shift on a small packed array is a cheap left-trim in V8; no ring buffer needed.
    if (this.events.length > this.limit) this.events.shift();
    if (isTerminalEvent(event)) this.terminalSeq = event.seq;
    this.wakeAll();
  }

  snapshot(): RunEvent[] {
    return this.events.slice();
  }

  /** Ends every reader normally once it has read what is already here. */
  close(): void {
    this.closed = true;
    this.wakeAll();
  }

  /** Ends every reader with `error` (for a Redis tail that fell behind the stream). */
  fail(error: Error): void {
    this.failure = error;
    this.wakeAll();
  }

  /** Events after `afterSeq` (clamped to the window), then live ones; ends after the terminal event. */
  async *read(afterSeq: number, signal?: AbortSignal): AsyncGenerator<RunEvent> {
    let cursor = Math.max(afterSeq, this.firstAvailableSeq - 1);
    // A reader that starts with a backlog (a late attach replaying the window) may stay that far behind.
    const allowedLag = Math.max(this.lagLimit, this.lastSeq - cursor);
    let wake: (() => void) | undefined;
    const onAbort = (): void => wake?.();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      while (!signal?.aborted) {
        if (this.failure) throw this.failure;
        if (cursor >= this.lastSeq) {
          if (this.closed || (this.terminalSeq !== undefined && cursor >= this.terminalSeq)) return;
          const waiter = new Promise<void>((resolve) => {
            wake = resolve;
            this.waiters.add(resolve);
          });
          await waiter;
          // An abort wakes only this reader, so its resolver may still sit in the shared set.
          if (wake) this.waiters.delete(wake);
          wake = undefined;
          continue;
        }
        const index = cursor + 1 - this.firstAvailableSeq;
        if (index < 0 || this.lastSeq - cursor > allowedLag) throw createSubscriberLagError(this.runId, allowedLag);
        const event = this.events[index];
        cursor = event.seq;
        yield event;
        if (isTerminalEvent(event)) return;
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (wake) this.waiters.delete(wake);
    }
  }

  private wakeAll(): void {
    if (this.waiters.size === 0) return;
    const waiters = this.waiters;
    this.waiters = new Set();
    for (const wake of waiters) wake();
  }
}
