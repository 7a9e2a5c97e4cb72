import { ConflictError, NotFoundError } from '../../errors.js';
import { isoNow } from '../../ids.js';
import type { InboxWorker, InboxWorkerStats } from './inbox/index.js';
import type { TriggerEvent, TriggerEventStore } from './trigger-event.store.js';
import type { TriggerIntake } from './trigger-intake.service.js';
import type { TriggerSource, TriggerSourceState } from './trigger-source.js';
import type { TriggerKind } from './trigger.types.js';
import type { DeliveryStatus, WebhookDeliveryView, WebhookInboxView } from './webhook-inbox-view.js';

/** One webhook, poller or listener as operators see it. */
export interface TriggerView {
  kind: 'webhook' | TriggerKind;
  name: string;
  /** The webhook's verification mode, `http` for a poller, the listener's source. */
  source: string;
  state: TriggerSourceState;
  last_error: string | null;
  next_attempt_at: string | null;
  /** received, duplicates, rejected and runs_started since the process started; failed: stored deliveries failed now. */
  counts: { received: number; duplicates: number; rejected: number; runs_started: number; failed: number };
  last_event_at: string | null;
}

/** A stored webhook delivery or trigger event, in one shape. */
export interface DeliveryView {
  id: string;
  kind: 'webhook' | TriggerKind;
  trigger: string;
  event: string;
  status: DeliveryStatus;
  attempts: number;
  last_error: string | null;
  received_at: string;
  finished_at: string | null;
  run_ids: string[];
}

export interface ListDeliveriesQuery {
  status?: DeliveryStatus;
  kind?: DeliveryView['kind'];
  limit: number;
  offset: number;
}

export interface TriggerOperations {
  listTriggers(): Promise<TriggerView[]>;
  /** Newest first, webhook deliveries and trigger events merged. */
  listDeliveries(query: ListDeliveriesQuery): Promise<DeliveryView[]>;
  /** Queues a failed delivery or event again; 404 for an unknown id, 409 when it has not failed. */
  retry(id: string): Promise<DeliveryView>;
}

export interface TriggerOperationsOptions {
  sources: readonly TriggerSource[];
  intake: TriggerIntake;
  store: TriggerEventStore;
  worker: InboxWorker;
  /** Absent when the webhook router is off. */
  webhooks?: WebhookInboxView;
  now?: () => Date;
}

export function createTriggerOperations(options: TriggerOperationsOptions): TriggerOperations {
  const now = options.now ?? (() => new Date());
  const { store, webhooks } = options;

  async function webhookViews(): Promise<TriggerView[]> {
    if (!webhooks) return [];
    const stats = new Map(webhooks.intake.stats().map((entry) => [entry.webhook, entry]));
    const runs = byGroup(webhooks.worker.stats());
    return Promise.all(
      webhooks.webhooks.map(async ({ name, verification }) => {
        const entry = stats.get(name);
        const failed = (await webhooks.store.countByStatus(name)).failed;
        const counts = { received: entry?.received ?? 0, duplicates: entry?.duplicates ?? 0, rejected: entry?.rejected ?? 0, runs_started: runs.get(name) ?? 0, failed };
        // A webhook waits for requests: it is up whenever the server is.
        return { kind: 'webhook' as const, name, source: verification, state: 'connected' as const, last_error: null, next_attempt_at: null, counts, last_event_at: entry?.last_received_at ?? null };
      }),
    );
  }

  async function sourceViews(): Promise<TriggerView[]> {
    const stats = new Map(options.intake.stats().map((entry) => [`${entry.kind}:${entry.name}`, entry]));
    const runs = byGroup(options.worker.stats());
    const failed = await store.countFailed();
    return options.sources.map((source) => {
      const key = `${source.kind}:${source.name}`;
      const entry = stats.get(key);
      const { state, last_error, next_attempt_at } = source.status();
      const counts = { received: entry?.received ?? 0, duplicates: entry?.duplicates ?? 0, rejected: entry?.rejected ?? 0, runs_started: runs.get(key) ?? 0, failed: failed.get(key) ?? 0 };
      return { kind: source.kind, name: source.name, source: source.source, state, last_error, next_attempt_at, counts, last_event_at: entry?.last_event_at ?? null };
    });
  }

  return {
    async listTriggers() {
      return [...(await webhookViews()), ...(await sourceViews())];
    },

    async listDeliveries({ status, kind, limit, offset }) {
      // Each side is read up to offset + limit, so the merged page is exact.
      const window = { status, limit: offset + limit, offset: 0 };
      const fromWebhooks = webhooks && (kind === undefined || kind === 'webhook') ? (await webhooks.store.list(window)).map(fromDelivery) : [];
      const fromTriggers = kind === 'webhook' ? [] : (await store.list({ ...window, kind })).map(fromTriggerEvent);
      return [...fromWebhooks, ...fromTriggers]
        .sort((a, b) => (a.received_at === b.received_at ? b.id.localeCompare(a.id) : b.received_at.localeCompare(a.received_at)))
        .slice(offset, offset + limit);
    },

    async retry(id) {
      const at = isoNow(now());
      if (id.startsWith('del_') && webhooks) {
        const retried = await webhooks.store.retry(id, at);
        if (retried) webhooks.worker.wake();
        return fromDelivery(retried ?? notRetryable(id, await webhooks.store.get(id)));
      }
      const retried = await store.retry(id, at);
      if (retried) options.worker.wake();
      return fromTriggerEvent(retried ?? notRetryable(id, await store.get(id)));
    },
  };
}

function notRetryable(id: string, found: { status: DeliveryStatus } | undefined): never {
  if (!found) throw new NotFoundError(`No delivery or trigger event "${id}"`, 'delivery_not_found');
  throw new ConflictError(`Only failed deliveries can be retried; "${id}" is ${found.status}`, 'delivery_not_failed', { status: found.status });
}

function byGroup(stats: InboxWorkerStats[]): Map<string, number> {
  return new Map(stats.map((entry) => [entry.group, entry.runs_started]));
}

function fromDelivery(delivery: WebhookDeliveryView): DeliveryView {
  const { delivery_id, webhook, event, status, attempts, last_error, received_at, finished_at, run_ids } = delivery;
  return { id: delivery_id, kind: 'webhook', trigger: webhook, event, status, attempts, last_error, received_at, finished_at, run_ids };
}

function fromTriggerEvent(event: TriggerEvent): DeliveryView {
  return { id: event.event_id, kind: event.trigger_kind, trigger: event.trigger_name, event: event.event, status: event.status, attempts: event.attempts, last_error: event.last_error, received_at: event.received_at, finished_at: event.finished_at, run_ids: event.run_ids };
}
