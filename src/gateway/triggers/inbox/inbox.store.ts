import { PostgresAdapter, sql, type Kysely, type Selectable } from 'kysely';
import type { Database, InboxItemsTable } from '../../../db/index.js';
import type {
  InboxItem,
  InboxOutcome,
  InboxSourceKind,
  InboxSourceStats,
  InboxStatus,
  NewInboxItem,
  SourceRef,
} from './inbox.types.js';

export interface ListInboxFilter {
  status?: InboxStatus;
  kind?: InboxSourceKind;
  name?: string;
  limit?: number;
  offset?: number;
}

export interface ClaimOptions {
  now: string;
  workerId: string;
  leaseUntil: string;
  limit: number;
  /** Only items of these source kinds (one lane of the worker). */
  kinds: readonly InboxSourceKind[];
}

/** The durable inbox every trigger stores into and the worker claims from. */
export interface InboxStore {
  /** Inserts an item; one already stored under the same source and dedupe key is returned instead, with `duplicate`. */
  insert(item: NewInboxItem): Promise<{ item: InboxItem; duplicate: boolean }>;
  /** Which of `keys` this source has stored before (a poller's items seen in earlier polls). */
  knownKeys(source: SourceRef, keys: readonly string[]): Promise<Set<string>>;
  get(itemId: string): Promise<InboxItem | undefined>;
  /** Newest first. */
  list(filter?: ListInboxFilter): Promise<InboxItem[]>;
  /** Moves up to `limit` due pending items to running for `workerId`, oldest due first; each is claimed by one worker only. */
  claimDue(options: ClaimOptions): Promise<InboxItem[]>;
  renewLeases(options: { ids: string[]; workerId: string; leaseUntil: string }): Promise<void>;
  /** Records the end of an attempt; false when the claim was lost (another worker took the item over). */
  settle(itemId: string, workerId: string, outcome: InboxOutcome): Promise<boolean>;
  /**
   * Returns running items whose claim lapsed (`all`: every one, for a process that knows it is alone) to
   * pending, or to dead once they have used every attempt. Returns how many moved.
   */
  releaseStale(options: {
    now: string;
    maxAttempts: number;
    kinds: readonly InboxSourceKind[];
    all?: boolean;
  }): Promise<number>;
  /** When the earliest pending item of these kinds is due; undefined when none is pending. */
  nextDueAt(kinds: readonly InboxSourceKind[]): Promise<string | undefined>;
  /** Queues a dead item again with fresh attempts; undefined when it does not exist or is not dead. */
  replay(itemId: string, now: string): Promise<InboxItem | undefined>;
  /** Counts per source and state, with the oldest pending item's receipt time. */
  stats(): Promise<InboxSourceStats[]>;
}

const table = 'inbox_items';

/** Takes the app's Kysely instance; claims use `FOR UPDATE SKIP LOCKED` on PostgreSQL, where replicas compete. */
export function createInboxStore(database: Kysely<Database>): InboxStore {
  const db = database;
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  async function get(itemId: string): Promise<InboxItem | undefined> {
    const row = await db.selectFrom(table).selectAll().where('item_id', '=', itemId).executeTakeFirst();
    return row && mapRow(row);
  }

  return {
    async insert(item) {
      const finished = item.status === 'ignored' ? item.received_at : null;
      const values = {
        ...item,
        headers: JSON.stringify(item.headers ?? {}),
        attempts: 0,
        next_attempt_at: item.received_at,
        last_error: null,
        finished_at: finished,
        run_ids: '[]',
        completed_handlers: '[]',
        locked_by: null,
        locked_until: null,
      };
      const inserted = await db
        .insertInto(table)
        .values(values)
        .onConflict((conflict) => conflict.columns(['source_kind', 'source_name', 'dedupe_key']).doNothing())
        .returningAll()
        .executeTakeFirst();
      if (inserted) return { item: mapRow(inserted), duplicate: false };
      const existing = await db
        .selectFrom(table)
        .selectAll()
        .where('source_kind', '=', item.source_kind)
        .where('source_name', '=', item.source_name)
        .where('dedupe_key', '=', item.dedupe_key)
        .executeTakeFirstOrThrow();
      return { item: mapRow(existing), duplicate: true };
    },

    async knownKeys(source, keys) {
      const known = new Set<string>();
      // Chunked so a large poll stays under the engines' bound-parameter limits.
      for (let start = 0; start < keys.length; start += 500) {
        const rows = await db
          .selectFrom(table)
          .select('dedupe_key')
          .where('source_kind', '=', source.kind)
          .where('source_name', '=', source.name)
          .where('dedupe_key', 'in', keys.slice(start, start + 500))
          .execute();
        for (const row of rows) if (row.dedupe_key !== null) known.add(row.dedupe_key);
      }
      return known;
    },

    get,

    async list(filter = {}) {
      const rows = await db
        .selectFrom(table)
        .selectAll()
        .$if(filter.status !== undefined, (query) => query.where('status', '=', filter.status!))
        .$if(filter.kind !== undefined, (query) => query.where('source_kind', '=', filter.kind!))
        .$if(filter.name !== undefined, (query) => query.where('source_name', '=', filter.name!))
        .orderBy('received_at', 'desc')
        .orderBy('item_id', 'desc')
        .limit(filter.limit ?? 50)
        .offset(filter.offset ?? 0)
        .execute();
      return rows.map(mapRow);
    },

    async claimDue({ now, workerId, leaseUntil, limit, kinds }) {
      if (limit <= 0 || kinds.length === 0) return [];
      const set = {
        status: 'running' as const,
        locked_by: workerId,
        locked_until: leaseUntil,
        attempts: sql<number>`attempts + 1`,
      };
      const due = db
        .selectFrom(table)
        .select('item_id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .where('source_kind', 'in', kinds)
        .orderBy('next_attempt_at')
        .orderBy('item_id')
        .limit(limit);
      // One statement: the due rows are picked and moved together, so two workers never take the same row. On
      // PostgreSQL the pick is a CTE (run once; an IN subquery may be re-run and skip other rows) and SKIP LOCKED
      // lets replicas claim side by side instead of queueing on each other's rows.
      const rows = postgres
        ? await db
            .with('due', () => due.forUpdate().skipLocked())
            .updateTable(table)
            .set(set)
            .from('due')
            .whereRef(`${table}.item_id`, '=', 'due.item_id')
            .returningAll(table)
            .execute()
        : await db
            .updateTable(table)
            .set(set)
            .where('item_id', 'in', due)
            .where('status', '=', 'pending')
            .returningAll()
            .execute();
      return rows
        .map(mapRow)
        .sort((a, b) => a.next_attempt_at.localeCompare(b.next_attempt_at) || a.item_id.localeCompare(b.item_id));
    },

    async renewLeases({ ids, workerId, leaseUntil }) {
      if (ids.length === 0) return;
      await db
        .updateTable(table)
        .set({ locked_until: leaseUntil })
        .where('item_id', 'in', ids)
        .where('locked_by', '=', workerId)
        .where('status', '=', 'running')
        .execute();
    },

    async settle(itemId, workerId, outcome) {
      const common = {
        status: outcome.status,
        last_error: outcome.lastError,
        run_ids: JSON.stringify(outcome.runIds),
        completed_handlers: JSON.stringify(outcome.completedHandlers),
        locked_by: null,
        locked_until: null,
      };
      const result = await db
        .updateTable(table)
        .set(
          outcome.status === 'pending'
            ? {
                ...common,
                next_attempt_at: outcome.nextAttemptAt,
                ...(outcome.refundAttempt ? { attempts: sql<number>`attempts - 1` } : {}),
              }
            : { ...common, finished_at: outcome.finishedAt },
        )
        .where('item_id', '=', itemId)
        .where('locked_by', '=', workerId)
        .where('status', '=', 'running')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async releaseStale({ now, maxAttempts, kinds, all }) {
      if (kinds.length === 0) return 0;
      const stale = db
        .updateTable(table)
        .where('status', '=', 'running')
        .where('source_kind', 'in', kinds)
        .$if(!all, (query) => query.where('locked_until', '<=', now));
      const exhausted = await stale
        .set({
          status: 'dead',
          finished_at: now,
          last_error: 'interrupted: the process handling the item stopped',
          locked_by: null,
          locked_until: null,
        })
        .where('attempts', '>=', maxAttempts)
        .executeTakeFirst();
      const released = await stale
        .set({ status: 'pending', next_attempt_at: now, locked_by: null, locked_until: null })
        .executeTakeFirst();
      return Number(exhausted.numUpdatedRows) + Number(released.numUpdatedRows);
    },

    async nextDueAt(kinds) {
      if (kinds.length === 0) return undefined;
      const row = await db
        .selectFrom(table)
        .select((eb) => eb.fn.min('next_attempt_at').as('due'))
        .where('status', '=', 'pending')
        .where('source_kind', 'in', kinds)
        .executeTakeFirst();
      return row?.due ?? undefined;
    },

    async replay(itemId, now) {
      const row = await db
        .updateTable(table)
        .set({ status: 'pending', attempts: 0, next_attempt_at: now, finished_at: null })
        .where('item_id', '=', itemId)
        .where('status', '=', 'dead')
        .returningAll()
        .executeTakeFirst();
      return row && mapRow(row);
    },

    async stats() {
      const rows = await db
        .selectFrom(table)
        .select([
          'source_kind',
          'source_name',
          'status',
          (eb) => eb.fn.countAll<number | string>().as('count'),
          (eb) => eb.fn.min('received_at').as('oldest'),
        ])
        .groupBy(['source_kind', 'source_name', 'status'])
        .execute();
      const bySource = new Map<string, InboxSourceStats>();
      for (const row of rows) {
        const key = `${row.source_kind}:${row.source_name}`;
        let entry = bySource.get(key);
        if (!entry)
          bySource.set(
            key,
            (entry = {
              kind: row.source_kind,
              name: row.source_name,
              pending: 0,
              running: 0,
              done: 0,
              dead: 0,
              ignored: 0,
              oldest_pending_at: null,
            }),
          );
        entry[row.status] = Number(row.count);
        if (row.status === 'pending') entry.oldest_pending_at = row.oldest;
      }
      return [...bySource.values()];
    },
  };
}

function mapRow(row: Selectable<InboxItemsTable>): InboxItem {
  const { locked_by: _lockedBy, locked_until: _lockedUntil, ...rest } = row;
  return {
    ...rest,
    attempts: Number(rest.attempts),
    payload: JSON.parse(rest.payload) as unknown,
    headers: JSON.parse(rest.headers) as Record<string, string>,
    run_ids: JSON.parse(rest.run_ids) as string[],
    completed_handlers: JSON.parse(rest.completed_handlers) as string[],
  };
}
