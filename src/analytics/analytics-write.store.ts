import type { Kysely } from 'kysely';
import { createDirectWrites, prepareQuery, type Database, type UsageDailyTable, type WriteQueue } from '../db/index.js';
import type { AnalyticsBatch, RiskRow, UsageRow } from './analytics.types.js';
import { toCostNanos } from './cost-nanos.js';

export interface AnalyticsWriteStore {
  /** Inserts usage rows and risk events and adds the usage to the daily totals, in one transaction. */
  writeBatch(batch: AnalyticsBatch): Promise<void>;
  /**
   * The same, queued on the write queue as it is: `batch` stays open, and rows pushed into it are written
   * with it, until the queue runs the write; `onStart` is called then, so the caller opens the next batch.
   * With the group commit the rows join the run writes' transaction without a turn of their own.
   */
  queueBatch(batch: AnalyticsBatch, onStart: () => void): Promise<void>;
}

type DailyRow = { [K in keyof UsageDailyTable]: K extends 'day' | 'agent_name' | 'model' ? string : number };

// Bound parameters per statement stay under SQLite's limit (32766) and PostgreSQL's (65535).
const MAX_PARAMETERS = 30_000;
const USAGE_COLUMNS = 22;
const RISK_COLUMNS = 10;
const DAILY_COLUMNS = 9;

/** `writes`: app.ts passes the database's group commit, so on SQLite usage rows share the run ends' transaction. */
export function createAnalyticsWriteStore(
  db: Kysely<Database>,
  writes: WriteQueue = createDirectWrites(db),
): AnalyticsWriteStore {
  // Every batch size compiles once (db/prepared-query.ts): batches are small and their sizes repeat.
  const insertUsage = prepareQuery((trx, rows: UsageRow[]) => trx.insertInto('usage_records').values(rows));
  const insertRisks = prepareQuery((trx, rows: RiskRow[]) => trx.insertInto('risk_events').values(rows));
  const addToDailyTotals = prepareQuery(buildDailyUpsert);
  const statements = async (trx: Kysely<Database>, { usage, risks }: AnalyticsBatch) => {
    for (const rows of chunks(usage, USAGE_COLUMNS)) await insertUsage(trx, rows);
    for (const rows of chunks(risks, RISK_COLUMNS)) await insertRisks(trx, rows);
    for (const rows of chunks(sumByDay(usage), DAILY_COLUMNS)) await addToDailyTotals(trx, rows);
  };
  return {
    async writeBatch(batch) {
      if (batch.usage.length === 0 && batch.risks.length === 0) return;
      await writes.write((trx) => statements(trx, batch), { atomic: true, persistent: true });
    },
    queueBatch(batch, onStart) {
      return writes.write(
        async (trx) => {
          onStart();
          await statements(trx, batch);
        },
        // Usage of calls already made (and billed upstream): kept until the database takes it.
        { atomic: true, persistent: true },
      );
    },
  };
}

function buildDailyUpsert(trx: Kysely<Database>, rows: DailyRow[]) {
  return trx
    .insertInto('usage_daily')
    .values(rows)
    .onConflict((conflict) =>
      conflict.columns(['day', 'agent_name', 'model']).doUpdateSet((eb) => ({
        request_count: eb('usage_daily.request_count', '+', eb.ref('excluded.request_count')),
        input_tokens: eb('usage_daily.input_tokens', '+', eb.ref('excluded.input_tokens')),
        output_tokens: eb('usage_daily.output_tokens', '+', eb.ref('excluded.output_tokens')),
        cached_tokens: eb('usage_daily.cached_tokens', '+', eb.ref('excluded.cached_tokens')),
        total_tokens: eb('usage_daily.total_tokens', '+', eb.ref('excluded.total_tokens')),
        cost_nanos: eb('usage_daily.cost_nanos', '+', eb.ref('excluded.cost_nanos')),
      })),
    );
}

/**
 * One row per (day, agent, model) of the batch: PostgreSQL refuses an upsert that touches a row twice.
 * Sorted, so concurrent replicas lock the rows they share in the same order and cannot deadlock.
 */
function sumByDay(usage: UsageRow[]): DailyRow[] {
  const totals = new Map<string, DailyRow>();
  for (const row of usage) {
    const day = row.created_at.slice(0, 10);
    const key = `${day}\u0000${row.agent_name}\u0000${row.model}`;
    let total = totals.get(key);
    if (!total) {
      total = {
        day,
        agent_name: row.agent_name,
        model: row.model,
        request_count: 0,
        input_tokens: 0,
        output_tokens: 0,
        cached_tokens: 0,
        total_tokens: 0,
        cost_nanos: 0,
      };
      totals.set(key, total);
    }
    total.request_count += 1;
    total.input_tokens += row.input_tokens;
    total.output_tokens += row.output_tokens;
    total.cached_tokens += row.cached_tokens;
    total.total_tokens += row.total_tokens;
    total.cost_nanos += toCostNanos(row.cost_usd);
  }
  return [...totals.keys()].sort().map((key) => totals.get(key)!);
}

function* chunks<T>(rows: T[], columns: number): Generator<T[]> {
  const size = Math.floor(MAX_PARAMETERS / columns);
  for (let start = 0; start < rows.length; start += size) yield rows.slice(start, start + size);
}
