import type { ListenerConfig } from '../../../config/index.js';
import type { RawMessage } from '../decode-message.js';
import type { Logger } from '../../../logger.js';

/**
 * Stores one message durably; resolves once it is stored (or counted as rejected), so the caller may
 * acknowledge it. Rejects when it could not be stored: the caller must not acknowledge it.
 */
export type Deliver = (message: RawMessage) => Promise<void>;

/** One connection's lifetime, from connected to lost. Clients' own reconnection is turned off: the listener reconnects. */
export interface ListenerConnection {
  /** Resolves with the reason once the connection is lost, or after close(). */
  closed: Promise<Error>;
  close(): Promise<void>;
}

export interface OpenConnectionContext<C extends ListenerConfig = ListenerConfig> {
  listener: C;
  deliver: Deliver;
  logger: Logger;
  /** Aborted by stop(): an attempt still connecting gives up. */
  signal: AbortSignal;
  /** This replica's id, unique among the replicas sharing the database (MQTT client ids, Redis consumers, leases). */
  replicaId: string;
  /** Called while another replica holds the source's lease and this one waits to take over. */
  standby: () => void;
}

/** Connects, subscribes and starts delivering; rejects when any step fails (the listener backs off and retries). */
export type OpenConnection<C extends ListenerConfig = ListenerConfig> = (
  context: OpenConnectionContext<C>,
) => Promise<ListenerConnection>;

/** A promise and the function that resolves it, for `closed`. */
export function closeSignal(): { closed: Promise<Error>; settle: (reason: Error) => void } {
  let settle!: (reason: Error) => void;
  const closed = new Promise<Error>((resolve) => {
    settle = resolve;
  });
  return { closed, settle };
}

export function asError(value: unknown, fallback: string): Error {
  return value instanceof Error ? value : new Error(value === undefined ? fallback : String(value)); // eslint-disable-line @typescript-eslint/no-base-to-string -- any thrown value: its own toString is the best text there is
}
