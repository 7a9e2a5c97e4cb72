import { sql, type Kysely, type Selectable } from 'kysely';
import { isUniqueViolation } from '../../db/index.js';
import type { InboxOutcome, InboxStore } from './inbox/index.js';
import type { TriggerEventsTable, TriggerEventStatus, TriggerTables } from './trigger.tables.js';
import type { TriggerKind, TriggerRef } from './trigger.types.js';

/** A stored poller or listener event: JSON columns parsed, claim columns hidden. */
export interface TriggerEvent {
  event_id: string;
  trigger_kind: TriggerKind;
  trigger_name: string;
  event: string;
  dedupe_key: string | null;
  payload: string;
  status: TriggerEventStatus;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  received_at: string;
  finished_at: string | null;
  run_ids: string[];
  completed_handlers: string[];
}

export type NewTriggerEvent = Pick<TriggerEvent, 'event_id' | 'trigger_kind' | 'trigger_name' | 'event' | 'dedupe_key' | 'payload' | 'received_at'> & {
  /** `ignored` when no handler matches: kept for deduplication and for operators. */
  status: 'pending' | 'ignored';
};

export interface ListTriggerEventsFilter {
  status?: TriggerEventStatus;
  kind?: TriggerKind;
  name?: string;
  limit?: number;
  offset?: number;
}

export interface TriggerEventStore extends InboxStore<TriggerEvent> {
  /** Inserts an event; one already stored under the same trigger and dedupe key is returned instead, with `duplicate`. */
  insert(event: NewTriggerEvent): Promise<{ event: TriggerEvent; duplicate: boolean }>;
  /** Which of `keys` this trigger has stored before (a poller's items seen in earlier polls). */
  knownKeys(trigger: TriggerRef, keys: readonly string[]): Promise<Set<string>>;
  get(eventId: string): Promise<TriggerEvent | undefined>;
  /** Newest first. */
  list(filter?: ListTriggerEventsFilter): Promise<TriggerEvent[]>;
  /** Queues a failed event again with fresh attempts; undefined when it does not exist or has not failed. */
  retry(eventId: string, now: string): Promise<TriggerEvent | undefined>;
  /** Failed events per trigger, keyed `<kind>:<name>`. */
  countFailed(): Promise<Map<string, number>>;
}

/** Takes the app's Kysely instance, whose table map may or may not list trigger_events yet. */
export function createTriggerEventStore<DB>(database: Kysely<DB>): TriggerEventStore {
  // Kysely's table map is invariant, and this store touches only its own table.
  const db = database as unknown as Kysely<TriggerTables>;
  const table = 'trigger_events' as const;

  async function get(eventId: string): Promise<TriggerEvent | undefined> {
    const row = await db.selectFrom(table).selectAll().where('event_id', '=', eventId).executeTakeFirst();
    return row && mapRow(row);
  }

  async function claimOne(eventId: string, options: { now: string; workerId: string; leaseUntil: string }): Promise<TriggerEvent | undefined> {
    // The status condition makes the claim atomic: of two workers updating the same row, the second matches nothing.
    const row = await db
      .updateTable(table)
      .set({ status: 'processing', locked_by: options.workerId, locked_until: options.leaseUntil, attempts: sql<number>`attempts + 1` })
      .where('event_id', '=', eventId)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', options.now)
      .returningAll()
      .executeTakeFirst();
    return row && mapRow(row);
  }

  return {
    async insert(event) {
      const finished = event.status === 'ignored' ? event.received_at : null;
      try {
        await db
          .insertInto(table)
          .values({ ...event, attempts: 0, next_attempt_at: event.received_at, last_error: null, finished_at: finished, run_ids: '[]', completed_handlers: '[]', locked_by: null, locked_until: null })
          .execute();
      } catch (error) {
        if (!isUniqueViolation(error) || event.dedupe_key === null) throw error;
        const existing = await db.selectFrom(table).selectAll().where('trigger_kind', '=', event.trigger_kind).where('trigger_name', '=', event.trigger_name).where('dedupe_key', '=', event.dedupe_key).executeTakeFirst();
        if (!existing) throw error;
        return { event: mapRow(existing), duplicate: true };
      }
      return { event: (await get(event.event_id))!, duplicate: false };
    },

    async knownKeys(trigger, keys) {
      const known = new Set<string>();
      // Chunked so a large poll stays under the engines' bound-parameter limits.
      for (let start = 0; start < keys.length; start += 500) {
        const rows = await db
          .selectFrom(table)
          .select('dedupe_key')
          .where('trigger_kind', '=', trigger.kind)
          .where('trigger_name', '=', trigger.name)
          .where('dedupe_key', 'in', keys.slice(start, start + 500))
          .execute();
        for (const row of rows) if (row.dedupe_key !== null) known.add(row.dedupe_key);
      }
      return known;
    },

    get,

    async claimDue(options) {
      const candidates = await db
        .selectFrom(table)
        .select('event_id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', options.now)
        .orderBy('next_attempt_at')
        .orderBy('event_id')
        .limit(options.limit)
        .execute();
      const claimed: TriggerEvent[] = [];
      for (const { event_id } of candidates) {
        const event = await claimOne(event_id, options);
        if (event) claimed.push(event);
      }
      return claimed;
    },

    async renewLeases({ ids, workerId, leaseUntil }) {
      if (ids.length === 0) return;
      await db.updateTable(table).set({ locked_until: leaseUntil }).where('event_id', 'in', ids).where('locked_by', '=', workerId).where('status', '=', 'processing').execute();
    },

    async settle(eventId, workerId, outcome: InboxOutcome) {
      const common = { status: outcome.status, last_error: outcome.lastError, run_ids: JSON.stringify(outcome.runIds), completed_handlers: JSON.stringify(outcome.completedHandlers), locked_by: null, locked_until: null };
      const result = await db
        .updateTable(table)
        .set(
          outcome.status === 'pending'
            ? { ...common, next_attempt_at: outcome.nextAttemptAt, ...(outcome.refundAttempt ? { attempts: sql<number>`attempts - 1` } : {}) }
            : { ...common, finished_at: outcome.finishedAt },
        )
        .where('event_id', '=', eventId)
        .where('locked_by', '=', workerId)
        .where('status', '=', 'processing')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async releaseStale({ now, maxAttempts, all }) {
      const stale = db.updateTable(table).where('status', '=', 'processing').$if(!all, (query) => query.where('locked_until', '<=', now));
      const exhausted = await stale
        .set({ status: 'failed', finished_at: now, last_error: 'interrupted: the process handling the event stopped', locked_by: null, locked_until: null })
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
        .$if(filter.kind !== undefined, (query) => query.where('trigger_kind', '=', filter.kind!))
        .$if(filter.name !== undefined, (query) => query.where('trigger_name', '=', filter.name!))
        .orderBy('received_at', 'desc')
        .orderBy('event_id', 'desc')
        .limit(filter.limit ?? 50)
        .offset(filter.offset ?? 0)
        .execute();
      return rows.map(mapRow);
    },

    async retry(eventId, now) {
      const row = await db.updateTable(table).set({ status: 'pending', attempts: 0, next_attempt_at: now, finished_at: null }).where('event_id', '=', eventId).where('status', '=', 'failed').returningAll().executeTakeFirst();
      return row && mapRow(row);
    },

    async countFailed() {
      const rows = await db.selectFrom(table).select(['trigger_kind', 'trigger_name', (eb) => eb.fn.countAll<number | string>().as('count')]).where('status', '=', 'failed').groupBy(['trigger_kind', 'trigger_name']).execute();
      return new Map(rows.map((row) => [`${row.trigger_kind}:${row.trigger_name}`, Number(row.count)]));
    },
  };
}

function mapRow(row: Selectable<TriggerEventsTable>): TriggerEvent {
  const { locked_by: _lockedBy, locked_until: _lockedUntil, ...rest } = row;
  return {
    ...rest,
    attempts: Number(rest.attempts),
    run_ids: JSON.parse(rest.run_ids) as string[],
    completed_handlers: JSON.parse(rest.completed_handlers) as string[],
  };
}
