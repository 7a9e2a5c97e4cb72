import { sql, type Kysely, type Selectable } from 'kysely';
import { isUniqueViolation } from '../../../db/index.js';
import type { InboxOutcome } from '../inbox/index.js';
import type { WebhookDeliveriesTable, WebhookDeliveryStatus, WebhookTables } from './webhook.tables.js';

/** A stored delivery as the rest of the service sees it: JSON columns parsed, claim columns hidden. */
export interface WebhookDelivery {
  delivery_id: string;
  webhook: string;
  event: string;
  dedupe_key: string;
  payload: string;
  headers: Record<string, string>;
  status: WebhookDeliveryStatus;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  received_at: string;
  finished_at: string | null;
  run_ids: string[];
  completed_handlers: string[];
}

export type NewWebhookDelivery = Pick<WebhookDelivery, 'delivery_id' | 'webhook' | 'event' | 'dedupe_key' | 'payload' | 'headers' | 'received_at'> & {
  /** `ignored` when no handler matches: kept for deduplication and for operators. */
  status: 'pending' | 'ignored';
};

/** What an attempt's worker writes when it lets go of a delivery. */
export type DeliveryOutcome = InboxOutcome;

export interface ListDeliveriesFilter {
  status?: WebhookDeliveryStatus;
  webhook?: string;
  limit?: number;
  offset?: number;
}

export interface WebhookDeliveryStore {
  /** Inserts a delivery; one already stored under the same webhook and dedupe key is returned instead, with `duplicate`. */
  insert(delivery: NewWebhookDelivery): Promise<{ delivery: WebhookDelivery; duplicate: boolean }>;
  get(deliveryId: string): Promise<WebhookDelivery | undefined>;
  /** Moves up to `limit` due pending deliveries to processing for `workerId`; a delivery is claimed by one worker only. */
  claimDue(options: { now: string; workerId: string; leaseUntil: string; limit: number }): Promise<WebhookDelivery[]>;
  renewLeases(options: { deliveryIds: string[]; workerId: string; leaseUntil: string }): Promise<void>;
  /** Records the end of an attempt; false when the claim was lost (another worker took the delivery over). */
  settle(deliveryId: string, workerId: string, outcome: DeliveryOutcome): Promise<boolean>;
  /**
   * Returns processing deliveries whose claim lapsed (`all`: every one, for a process that knows it is
   * alone) to pending, or to failed once they have used every attempt. Returns how many moved.
   */
  releaseStale(options: { now: string; maxAttempts: number; all?: boolean }): Promise<number>;
  /** Newest first. */
  list(filter?: ListDeliveriesFilter): Promise<WebhookDelivery[]>;
  /** Queues a failed delivery again with fresh attempts; undefined when it does not exist or has not failed. */
  retry(deliveryId: string, now: string): Promise<WebhookDelivery | undefined>;
  countByStatus(webhook?: string): Promise<Record<WebhookDeliveryStatus, number>>;
}

/** Takes the app's Kysely instance, whose table map may or may not list webhook_deliveries yet. */
export function createWebhookDeliveryStore<DB>(database: Kysely<DB>): WebhookDeliveryStore {
  // Kysely's table map is invariant, and this store touches only its own table.
  const db = database as unknown as Kysely<WebhookTables>;
  const table = 'webhook_deliveries' as const;

  async function get(deliveryId: string): Promise<WebhookDelivery | undefined> {
    const row = await db.selectFrom(table).selectAll().where('delivery_id', '=', deliveryId).executeTakeFirst();
    return row && mapRow(row);
  }

  async function claimOne(deliveryId: string, options: { now: string; workerId: string; leaseUntil: string }): Promise<WebhookDelivery | undefined> {
    // The status condition makes the claim atomic: of two workers updating the same row, the second matches nothing.
    const row = await db
      .updateTable(table)
      .set({ status: 'processing', locked_by: options.workerId, locked_until: options.leaseUntil, attempts: sql<number>`attempts + 1` })
      .where('delivery_id', '=', deliveryId)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', options.now)
      .returningAll()
      .executeTakeFirst();
    return row && mapRow(row);
  }

  return {
    async insert(delivery) {
      const finished = delivery.status === 'ignored' ? delivery.received_at : null;
      try {
        await db
          .insertInto(table)
          .values({ ...delivery, headers: JSON.stringify(delivery.headers), attempts: 0, next_attempt_at: delivery.received_at, last_error: null, finished_at: finished, run_ids: '[]', completed_handlers: '[]', locked_by: null, locked_until: null })
          .execute();
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        const existing = await db.selectFrom(table).selectAll().where('webhook', '=', delivery.webhook).where('dedupe_key', '=', delivery.dedupe_key).executeTakeFirst();
        if (!existing) throw error;
        return { delivery: mapRow(existing), duplicate: true };
      }
      return { delivery: (await get(delivery.delivery_id))!, duplicate: false };
    },

    get,

    async claimDue(options) {
      const candidates = await db
        .selectFrom(table)
        .select('delivery_id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', options.now)
        .orderBy('next_attempt_at')
        .orderBy('delivery_id')
        .limit(options.limit)
        .execute();
      const claimed: WebhookDelivery[] = [];
      for (const { delivery_id } of candidates) {
        const delivery = await claimOne(delivery_id, options);
        if (delivery) claimed.push(delivery);
      }
      return claimed;
    },

    async renewLeases({ deliveryIds, workerId, leaseUntil }) {
      if (deliveryIds.length === 0) return;
      await db.updateTable(table).set({ locked_until: leaseUntil }).where('delivery_id', 'in', deliveryIds).where('locked_by', '=', workerId).where('status', '=', 'processing').execute();
    },

    async settle(deliveryId, workerId, outcome) {
      const common = { status: outcome.status, last_error: outcome.lastError, run_ids: JSON.stringify(outcome.runIds), completed_handlers: JSON.stringify(outcome.completedHandlers), locked_by: null, locked_until: null };
      const result = await db
        .updateTable(table)
        .set(
          outcome.status === 'pending'
            ? { ...common, next_attempt_at: outcome.nextAttemptAt, ...(outcome.refundAttempt ? { attempts: sql<number>`attempts - 1` } : {}) }
            : { ...common, finished_at: outcome.finishedAt },
        )
        .where('delivery_id', '=', deliveryId)
        .where('locked_by', '=', workerId)
        .where('status', '=', 'processing')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async releaseStale({ now, maxAttempts, all }) {
      const stale = db.updateTable(table).where('status', '=', 'processing').$if(!all, (query) => query.where('locked_until', '<=', now));
      const exhausted = await stale
        .set({ status: 'failed', finished_at: now, last_error: 'interrupted: the process handling the delivery stopped', locked_by: null, locked_until: null })
        .where('attempts', '>=', maxAttempts)
        .executeTakeFirst();
      const released = await stale.set({ status: 'pending', next_attempt_at: now, locked_by: null, locked_until: null }).executeTakeFirst();
      return Number(exhausted.numUpdatedRows) + Number(released.numUpdatedRows);
    },

    async list(filter = {}) {
      const rows = await db
        .selectFrom(table)
        .selectAll()
        .$if(filter.status !== undefined, (query) => query.where('status', '=', filter.status!))
        .$if(filter.webhook !== undefined, (query) => query.where('webhook', '=', filter.webhook!))
        .orderBy('received_at', 'desc')
        .orderBy('delivery_id', 'desc')
        .limit(filter.limit ?? 50)
        .offset(filter.offset ?? 0)
        .execute();
      return rows.map(mapRow);
    },

    async retry(deliveryId, now) {
      const row = await db.updateTable(table).set({ status: 'pending', attempts: 0, next_attempt_at: now, finished_at: null }).where('delivery_id', '=', deliveryId).where('status', '=', 'failed').returningAll().executeTakeFirst();
      return row && mapRow(row);
    },

    async countByStatus(webhook) {
      const rows = await db.selectFrom(table).select(['status', (eb) => eb.fn.countAll<number | string>().as('count')]).$if(webhook !== undefined, (query) => query.where('webhook', '=', webhook!)).groupBy('status').execute();
      const counts: Record<WebhookDeliveryStatus, number> = { pending: 0, processing: 0, done: 0, failed: 0, ignored: 0 };
      for (const row of rows) counts[row.status] = Number(row.count);
      return counts;
    },
  };
}

function mapRow(row: Selectable<WebhookDeliveriesTable>): WebhookDelivery {
  const { locked_by: _lockedBy, locked_until: _lockedUntil, ...rest } = row;
  return {
    ...rest,
    attempts: Number(rest.attempts),
    headers: JSON.parse(rest.headers) as Record<string, string>,
    run_ids: JSON.parse(rest.run_ids) as string[],
    completed_handlers: JSON.parse(rest.completed_handlers) as string[],
  };
}
