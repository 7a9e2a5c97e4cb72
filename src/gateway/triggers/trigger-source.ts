/**
 * Where a source stands: `connecting` before its first connection or poll, `connected` while connected
 * (a poller: its last poll succeeded), `backing_off` while waiting to retry after a failure, `error` when
 * it gave up on a failure retrying cannot fix, `standby` while another replica holds the source's lease
 * (an external SSE stream is read by one replica at a time), `stopped` after stop().
 */
export type TriggerSourceState = 'connecting' | 'connected' | 'backing_off' | 'standby' | 'error' | 'stopped';

export interface TriggerSourceStatus {
  state: TriggerSourceState;
  /** The failure that caused the current backing_off or error state, else the last one seen. */
  last_error: string | null;
  /** When the next connection attempt or poll is due (backing off, or a poller between polls). */
  next_attempt_at: string | null;
  /** Consecutive failures; 0 once a connection or poll succeeds. */
  failures: number;
}

/** A poller or listener: something that, once started, turns outside events into stored trigger events. */
export interface TriggerSource {
  readonly kind: 'poller' | 'listener';
  readonly name: string;
  /** `http` for pollers; the listener's source (redis, redis-stream, amqp, nats, mqtt, sse). */
  readonly source: string;
  /** Begins polling or connecting in the background; failures are retried, never thrown. */
  start(): void;
  /** Stops at once: closes the connection or cancels the wait; resolves when nothing is left running. */
  stop(): Promise<void>;
  status(): TriggerSourceStatus;
}

/** A failure retrying cannot fix (e.g. an SSE source answering 404): the source moves to `error` and stays there. */
export class PermanentSourceError extends Error {
  override readonly name = 'PermanentSourceError';
}
