import type { Selectable } from 'kysely';
import type { InboxItemsTable, InboxSourceKind, InboxStatus, RetryPolicy } from '../../../db/index.js';

export type { InboxSourceKind, InboxStatus };

/** Names one configured webhook, poller or listener: the source an inbox item came from. */
export interface SourceRef {
  kind: InboxSourceKind;
  name: string;
}

/** A stored inbox item as the rest of the service sees it: JSON columns parsed, claim columns hidden. */
export type InboxItem = Omit<
  Selectable<InboxItemsTable>,
  'locked_by' | 'locked_until' | 'payload' | 'headers' | 'run_ids' | 'completed_handlers'
> & {
  /** The JSON payload as received, parsed. */
  payload: unknown;
  headers: Record<string, string>;
  run_ids: string[];
  completed_handlers: string[];
};

/** `payload` is the JSON text as received (kept byte for byte). */
export type NewInboxItem = Pick<
  Selectable<InboxItemsTable>,
  'item_id' | 'source_kind' | 'source_name' | 'event' | 'dedupe_key' | 'payload' | 'received_at'
> & {
  headers?: Record<string, string>;
  /** The `traceparent` of the request that stored the item (webhook intake); its runs' spans link to it. */
  traceparent?: string | null;
  /** `ignored` when no handler matches: kept for deduplication and for operators. */
  status: 'pending' | 'ignored';
};

/** What an attempt's worker writes when it lets go of an item. */
export type InboxOutcome = { runIds: string[]; completedHandlers: string[]; lastError: string | null } & (
  | { status: 'done' | 'dead' | 'ignored'; finishedAt: string }
  | {
      status: 'pending';
      nextAttemptAt: string;
      /** The attempt did not really happen (shutdown): do not count it. */ refundAttempt?: boolean;
    }
);

/** Item counts of one source by state, with the age of its oldest pending item. */
export interface InboxSourceStats {
  kind: InboxSourceKind;
  name: string;
  pending: number;
  running: number;
  done: number;
  dead: number;
  ignored: number;
  /** When the oldest pending item was received; null when none is pending. */
  oldest_pending_at: string | null;
}

/** How failed handler runs are retried: `max_attempts` runs per item, counting the first, then a dead letter. */
export type InboxRetrySettings = RetryPolicy;

/** One lane of the worker: the source kinds it takes, how many at once, and how they are retried. */
export interface InboxLaneSettings extends InboxRetrySettings {
  concurrency: number;
  poll_interval_ms: number;
  lease_seconds: number;
}
