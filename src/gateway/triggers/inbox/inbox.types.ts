/** The columns of a stored inbox item (webhook delivery, trigger event) that the worker reads. */
export interface InboxItem {
  attempts: number;
  run_ids: string[];
  completed_handlers: string[];
}

/** What an attempt's worker writes when it lets go of an item. */
export type InboxOutcome = { runIds: string[]; completedHandlers: string[]; lastError: string | null } & (
  | { status: 'done' | 'failed' | 'ignored'; finishedAt: string }
  | { status: 'pending'; nextAttemptAt: string; /** The attempt did not really happen (shutdown): do not count it. */ refundAttempt?: boolean }
);

/** The claim-and-lease operations a durable inbox table offers its worker. */
export interface InboxStore<T> {
  /** Moves up to `limit` due pending items to processing for `workerId`; an item is claimed by one worker only. */
  claimDue(options: { now: string; workerId: string; leaseUntil: string; limit: number }): Promise<T[]>;
  renewLeases(options: { ids: string[]; workerId: string; leaseUntil: string }): Promise<void>;
  /** Records the end of an attempt; false when the claim was lost (another worker took the item over). */
  settle(id: string, workerId: string, outcome: InboxOutcome): Promise<boolean>;
  /** Returns processing items whose claim lapsed (`all`: every one) to pending, or to failed once out of attempts. */
  releaseStale(options: { now: string; maxAttempts: number; all?: boolean }): Promise<number>;
}

/** How failed handler runs are retried. */
export interface InboxRetrySettings {
  /** Handler runs per item, counting the first; then the item is kept as failed. */
  max_attempts: number;
  /** Delay before the first retry; it doubles on each further attempt up to max_backoff_seconds. */
  backoff_seconds: number;
  max_backoff_seconds: number;
}

export interface InboxWorkerSettings extends InboxRetrySettings {
  concurrency: number;
  poll_interval_ms: number;
  lease_seconds: number;
}

/** The slice of pino's logger the inbox uses. */
export interface InboxLogger {
  info(object: Record<string, unknown>, message: string): void;
  warn(object: Record<string, unknown>, message: string): void;
  error(object: Record<string, unknown>, message: string): void;
}
