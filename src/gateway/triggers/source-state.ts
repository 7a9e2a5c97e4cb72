import { isoNow } from '../../ids.js';
import type { TriggerSource, TriggerSourceState, TriggerSourceStatus } from './trigger-source.js';
import type { Logger } from '../../logger.js';

/** Tracks one source's state and failure count, and logs each change once. */
export interface SourceState {
  status(): TriggerSourceStatus;
  connecting(): void;
  connected(nextAttemptAt?: Date): void;
  /** Another replica reads this source; this one waits to take over. */
  standby(): void;
  /** Counts a failure and returns the consecutive failures so far (for the backoff). */
  failed(error: unknown): number;
  backingOff(until: Date): void;
  gaveUp(error: unknown): void;
  stopped(): void;
}

export function createSourceState(fields: Record<string, unknown>, logger: Logger): SourceState {
  // Until start(): a source the gateway flag keeps off is listed as stopped.
  let state: TriggerSourceState = 'stopped';
  let lastError: string | null = null;
  let nextAttemptAt: string | null = null;
  let failures = 0;

  return {
    status: () => ({ state, last_error: lastError, next_attempt_at: nextAttemptAt, failures }),
    connecting() {
      state = 'connecting';
      nextAttemptAt = null;
    },
    connected(next) {
      if (state !== 'connected') logger.info({ ...fields, after_failures: failures }, 'trigger source connected');
      failures = 0;
      nextAttemptAt = next ? isoNow(next) : null;
      state = 'connected';
    },
    standby() {
      if (state !== 'standby') logger.info(fields, 'trigger source on standby: another replica holds its lease');
      nextAttemptAt = null;
      state = 'standby';
    },
    failed(error) {
      failures += 1;
      lastError = describe(error);
      return failures;
    },
    backingOff(until) {
      nextAttemptAt = isoNow(until);
      logger.warn(
        { ...fields, error: lastError, failures, next_attempt_at: nextAttemptAt },
        'trigger source failed; backing off',
      );
      state = 'backing_off';
    },
    gaveUp(error) {
      lastError = describe(error);
      nextAttemptAt = null;
      logger.error(
        { ...fields, error: lastError },
        'trigger source failed for good; it stays stopped until the next start',
      );
      state = 'error';
    },
    stopped() {
      nextAttemptAt = null;
      state = 'stopped';
    },
  };
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/**
 * start/stop/status of a source whose work is one loop until its signal aborts: start() begins the loop
 * once, stop() aborts it and resolves when it has returned.
 */
export function sourceLifecycle(
  state: SourceState,
  run: (signal: AbortSignal) => Promise<void>,
): Pick<TriggerSource, 'start' | 'stop' | 'status'> {
  let controller: AbortController | undefined;
  let loop: Promise<void> | undefined;
  return {
    start() {
      if (loop) return;
      controller = new AbortController();
      state.connecting();
      loop = run(controller.signal);
    },
    async stop() {
      controller?.abort();
      await loop;
      loop = undefined;
      state.stopped();
    },
    status: () => state.status(),
  };
}
