import type { RunEvent, RunEventBody } from './events.js';

export type RunControlCommand = 'pause' | 'resume' | 'cancel';

export type RunControlHandler = (runId: string, command: RunControlCommand) => void;

export interface SubscribeOptions {
  /** The last seq the caller already has (SSE Last-Event-ID): only later events are delivered. Default 0, the whole log. */
  afterSeq?: number;
  /** Aborting ends the iteration normally (no error), so a disconnecting client just stops reading. */
  signal?: AbortSignal;
}

/**
 * Every run's events, in order, for any number of readers; plus the pause/resume/cancel channel.
 * In-process by default, Redis when configured: callers only ever see this interface.
 */
export interface RunEventBus {
  /** Events a run's log keeps (history() returns at most these, the newest). Default DEFAULT_LOG_LIMIT. */
  readonly logLimit?: number;
  /**
   * Appends an event to the run's ordered, bounded log and delivers it to live subscribers. `seq` and `at` are
   * the ones the run's own publisher gave it (numbering never restarts with the bus's store, and the stored log
   * says the same time); without them the bus numbers it after the last event it holds, and dates it now.
   */
  publish(runId: string, body: RunEventBody, seq?: number, at?: string): Promise<RunEvent>;
  /**
   * Past events still in the run's bounded log (after `afterSeq`), then live ones, with no gap and no duplicate.
   * Ends after a terminal event (run-end / run-error); fails with code `subscriber_lagging` when the reader
   * falls further behind than the log holds.
   */
  subscribe(runId: string, options?: SubscribeOptions): AsyncIterable<RunEvent>;
  /** The run's log as it is now (for persisting a finished run's events and for replay); [] once forgotten. */
  history(runId: string): Promise<RunEvent[]>;
  /** Delivers a control command to the onControl handlers of every process (this one synchronously). */
  sendControl(runId: string, command: RunControlCommand): Promise<void>;
  /** Registers a handler for control commands of all runs; returns its unregister function. */
  onControl(handler: RunControlHandler): () => void;
  /** False when the backing store is unreachable (for /status degraded). */
  ping(): Promise<boolean>;
  /**
   * This process is leaving (its drain handed its runs on): every subscription it serves ends with `error`,
   * its own runs' and those it reads from other processes, so each client can attach again elsewhere.
   */
  leave(error: Error): void;
  /** Ends every subscription and releases connections and timers. */
  close(): Promise<void>;
}

export interface RunEventBusOptions {
  /** Selects the Redis implementation when set. */
  redisUrl?: string;
  /** Events kept per run. Default 1000. */
  logLimit?: number;
  /** How long a finished run's log stays readable after its terminal event. Default 5 minutes on Redis, 10 s in process. */
  retentionMs?: number;
  /** Prefix of every Redis key and channel (tests isolate themselves with it). Default `agent-gateway:`. */
  keyPrefix?: string;
  /** Receives errors that have no caller to throw to (a control handler throwing, a lost connection). */
  onError?: (error: unknown) => void;
}

export const DEFAULT_LOG_LIMIT = 1000;
export const DEFAULT_RETENTION_MS = 5 * 60_000;
export const DEFAULT_KEY_PREFIX = 'agent-gateway:';
