import { isTerminalEvent, type RunEvent } from './events.js';
import { NOT_YET, type SyncRunEventSource } from './run-event-source.js';
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
  private shifted = false;
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
    if (this.events.length > this.limit) {
      this.events.shift();
      this.shifted = true;
    }
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

  /**
   * Events after `afterSeq` (clamped to the window), then live ones; ends after the terminal event. Reading
   * starts with the first take(), onReadable() or next(): `hooks.onStart` runs then, and `hooks.onEnd` once
   * the reader is done (ended, aborted, failed or closed).
   */
  read(afterSeq: number, signal?: AbortSignal, hooks: ReaderHooks = {}): SyncRunEventSource {
    return new RunLogReader(this, afterSeq, signal, hooks);
  }

  /** @internal The reader's view of the log. */
  entry(index: number): RunEvent | undefined {
    return this.events[index];
  }

  /** @internal True when nothing after `cursor` will ever come. */
  endsAt(cursor: number): boolean {
    return this.closed || (this.terminalSeq !== undefined && cursor >= this.terminalSeq);
  }

  /** @internal True once events left the window: a reader behind it missed them. */
  get trimmed(): boolean {
    return this.shifted;
  }

  /** @internal */
  get error(): Error | undefined {
    return this.failure;
  }

  /** @internal */
  addWaiter(wake: () => void): void {
    this.waiters.add(wake);
  }

  /** @internal */
  removeWaiter(wake: () => void): void {
    this.waiters.delete(wake);
  }

  /**
   * Wakes every waiting reader synchronously. A reader of the AG-UI fan-out writes its frame from here, so
   * one throwing must not leave the others asleep: all are woken, then the first error is rethrown.
   */
  private wakeAll(): void {
    if (this.waiters.size === 0) return;
    const waiters = this.waiters;
    this.waiters = new Set();
    let failure: { error: unknown } | undefined;
    for (const wake of waiters) {
      try {
        wake();
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  }
}

export interface ReaderHooks {
  onStart?: () => void;
  onEnd?: () => void;
}

/** One reader's cursor into a RunLog, readable with take() (no promise) or as an async iterator. */
class RunLogReader implements SyncRunEventSource {
  private readonly log: RunLog;
  private readonly signal: AbortSignal | undefined;
  private readonly hooks: ReaderHooks;
  private cursor: number;
  private allowedLag = 0;
  private started = false;
  private done = false;
  private aborted = false;
  /** The wake-up registered with the log, if any (an abort or close must remove it). */
  private wake: (() => void) | undefined;
  private readonly onAbort = (): void => {
    this.aborted = true;
    const wake = this.wake;
    if (wake) {
      this.log.removeWaiter(wake);
      wake();
    }
  };

  constructor(log: RunLog, afterSeq: number, signal: AbortSignal | undefined, hooks: ReaderHooks) {
    this.log = log;
    this.signal = signal;
    this.hooks = hooks;
    this.cursor = afterSeq;
  }

  take(): RunEvent | undefined | typeof NOT_YET {
    if (this.done) return undefined;
    if (!this.started) this.start();
    if (this.aborted) return this.end();
    const log = this.log;
    if (log.error) {
      this.end();
      throw log.error;
    }
    const cursor = this.cursor;
    if (cursor >= log.lastSeq) return log.endsAt(cursor) ? this.end() : NOT_YET;
    // A log that never trimmed and starts above the cursor was numbered from higher up (a run taken over
    // without its earlier events): nothing was missed, the reader starts at its first event.
    if (cursor + 1 < log.firstAvailableSeq && !log.trimmed) return this.skipTo(log.firstAvailableSeq - 1);
    const index = cursor + 1 - log.firstAvailableSeq;
    if (index < 0 || log.lastSeq - cursor > this.allowedLag) {
      this.end();
      throw createSubscriberLagError(log.runId, this.allowedLag);
    }
    const event = log.entry(index)!;
    this.cursor = event.seq;
    if (isTerminalEvent(event)) this.end();
    return event;
  }

  onReadable(wake: () => void): void {
    if (this.done || this.aborted) return wake();
    if (!this.started) this.start();
    if (this.wake) this.log.removeWaiter(this.wake);
    // A wake-up superseded or dropped (an abort or close woke the reader already) must not run again.
    const once = (): void => {
      if (this.wake !== once) return;
      this.wake = undefined;
      wake();
    };
    this.wake = once;
    this.log.addWaiter(once);
  }

  close(): void {
    if (!this.done) this.end();
  }

  async next(): Promise<IteratorResult<RunEvent>> {
    for (;;) {
      const event = this.take();
      if (event === undefined) return { done: true, value: undefined };
      if (event !== NOT_YET) return { done: false, value: event };
      await new Promise<void>((resolve) => this.onReadable(resolve));
    }
  }

  async return(): Promise<IteratorResult<RunEvent>> {
    this.close();
    return { done: true, value: undefined };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private skipTo(cursor: number): RunEvent | undefined | typeof NOT_YET {
    this.cursor = cursor;
    return this.take();
  }

  /** The window is clamped and the allowed lag fixed on the first read, as a generator's body would. */
  private start(): void {
    this.started = true;
    this.hooks.onStart?.();
    const log = this.log;
    this.cursor = Math.max(this.cursor, log.firstAvailableSeq - 1);
    // A reader that starts with a backlog (a late attach replaying the window) may stay that far behind.
    this.allowedLag = Math.max(log.lagLimit, log.lastSeq - this.cursor);
    if (this.signal?.aborted) this.aborted = true;
    else this.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  private end(): undefined {
    this.done = true;
    const wake = this.wake;
    if (wake) this.log.removeWaiter(wake);
    if (this.started) {
      this.signal?.removeEventListener('abort', this.onAbort);
      this.hooks.onEnd?.();
    }
    // Whoever waits for the next event (a next() closed from elsewhere) learns that there is none.
    wake?.();
    return undefined;
  }
}
