import { ConflictError, NotFoundError } from '../../errors.js';
import { isoNow } from '../../ids.js';
import type {
  InboxItem,
  InboxSourceKind,
  InboxSourceStats,
  InboxStatus,
  InboxStore,
  InboxWorker,
} from './inbox/index.js';
import type { TriggerIntake } from './trigger-intake.service.js';
import type { TriggerSource, TriggerSourceState } from './trigger-source.js';

/** A source's stored items by state; the age is that of its oldest pending item (0 when none is pending). */
export interface InboxView {
  pending: number;
  running: number;
  done: number;
  dead: number;
  ignored: number;
  oldest_pending_age_seconds: number;
}

/** One webhook, poller or listener as operators see it. */
export interface TriggerView {
  kind: InboxSourceKind;
  name: string;
  /** The webhook's verification mode, `http` for a poller, the listener's source. */
  source: string;
  state: TriggerSourceState;
  last_error: string | null;
  next_attempt_at: string | null;
  /** Since the process started. */
  counts: { received: number; duplicates: number; rejected: number; runs_started: number };
  /** What is stored now, across every replica. */
  inbox: InboxView;
  last_event_at: string | null;
}

/** A stored webhook delivery or trigger event, in one shape. */
export interface DeliveryView {
  id: string;
  kind: InboxSourceKind;
  trigger: string;
  event: string;
  status: InboxStatus;
  attempts: number;
  last_error: string | null;
  received_at: string;
  finished_at: string | null;
  run_ids: string[];
}

export interface ListDeliveriesQuery {
  status?: InboxStatus;
  kind?: InboxSourceKind;
  trigger?: string;
  limit: number;
  offset: number;
}

export interface TriggerOperations {
  listTriggers(): Promise<TriggerView[]>;
  /** Newest first. */
  listDeliveries(query: ListDeliveriesQuery): Promise<DeliveryView[]>;
  /** Queues a dead letter again with fresh attempts; 404 for an unknown id, 409 when it is not dead. */
  replay(id: string): Promise<DeliveryView>;
  /** Per source stored counts, for /metrics. */
  inboxStats(): Promise<InboxSourceStats[]>;
}

export interface TriggerOperationsOptions {
  sources: readonly TriggerSource[];
  intake: TriggerIntake;
  store: InboxStore;
  worker: InboxWorker;
  /** Absent when the webhook router is off. */
  webhooks?: { configs: readonly { name: string; verification: string }[] };
  now?: () => Date;
}

export function createTriggerOperations(options: TriggerOperationsOptions): TriggerOperations {
  const now = options.now ?? (() => new Date());
  const { store, webhooks } = options;

  function inboxView(stats: Map<string, InboxSourceStats>, key: string): InboxView {
    const entry = stats.get(key);
    const oldest = entry?.oldest_pending_at ? Date.parse(entry.oldest_pending_at) : undefined;
    return {
      pending: entry?.pending ?? 0,
      running: entry?.running ?? 0,
      done: entry?.done ?? 0,
      dead: entry?.dead ?? 0,
      ignored: entry?.ignored ?? 0,
      oldest_pending_age_seconds: oldest === undefined ? 0 : Math.max(0, Math.floor((now().getTime() - oldest) / 1000)),
    };
  }

  return {
    async listTriggers() {
      const stored = new Map((await store.stats()).map((entry) => [`${entry.kind}:${entry.name}`, entry]));
      const runs = new Map(options.worker.stats().map((entry) => [entry.group, entry.runs_started]));
      const events = new Map(options.intake.stats().map((entry) => [`${entry.kind}:${entry.name}`, entry]));
      const webhookViews = (webhooks?.configs ?? []).map(({ name, verification }): TriggerView => {
        const key = `webhook:${name}`;
        const entry = events.get(key);
        const counts = {
          received: entry?.received ?? 0,
          duplicates: entry?.duplicates ?? 0,
          rejected: entry?.rejected ?? 0,
          runs_started: runs.get(key) ?? 0,
        };
        // A webhook waits for requests: it is up whenever the server is.
        return {
          kind: 'webhook',
          name,
          source: verification,
          state: 'connected',
          last_error: null,
          next_attempt_at: null,
          counts,
          inbox: inboxView(stored, key),
          last_event_at: entry?.last_event_at ?? null,
        };
      });
      const sourceViews = options.sources.map((source): TriggerView => {
        const key = `${source.kind}:${source.name}`;
        const entry = events.get(key);
        const { state, last_error, next_attempt_at } = source.status();
        const counts = {
          received: entry?.received ?? 0,
          duplicates: entry?.duplicates ?? 0,
          rejected: entry?.rejected ?? 0,
          runs_started: runs.get(key) ?? 0,
        };
        return {
          kind: source.kind,
          name: source.name,
          source: source.source,
          state,
          last_error,
          next_attempt_at,
          counts,
          inbox: inboxView(stored, key),
          last_event_at: entry?.last_event_at ?? null,
        };
      });
      return [...webhookViews, ...sourceViews];
    },

    async listDeliveries({ status, kind, trigger, limit, offset }) {
      return (await store.list({ status, kind, name: trigger, limit, offset })).map(toDeliveryView);
    },

    async replay(id) {
      const replayed = await store.replay(id, isoNow(now()));
      if (replayed) {
        options.worker.wake();
        return toDeliveryView(replayed);
      }
      const found = await store.get(id);
      if (!found) throw new NotFoundError(`No delivery or trigger event "${id}"`, 'delivery_not_found');
      throw new ConflictError(`Only dead deliveries can be replayed; "${id}" is ${found.status}`, 'delivery_not_dead', {
        status: found.status,
      });
    },

    inboxStats: () => store.stats(),
  };
}

function toDeliveryView(item: InboxItem): DeliveryView {
  const { item_id, source_kind, source_name, event, status, attempts, last_error, received_at, finished_at, run_ids } =
    item;
  return {
    id: item_id,
    kind: source_kind,
    trigger: source_name,
    event,
    status,
    attempts,
    last_error,
    received_at,
    finished_at,
    run_ids,
  };
}
