import type { Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function up(db: Kysely<any>): Promise<void> {
  // One row per model call. cost_usd is stored rounded to 1e-9 USD, so round(cost_usd * 1e9) is exact.
  await db.schema
    .createTable('usage_records')
    .addColumn('usage_id', 'text', (col) => col.primaryKey())
    .addColumn('run_id', 'text', (col) => col.notNull())
    .addColumn('step_id', 'text')
    .addColumn('agent_name', 'text', (col) => col.notNull())
    .addColumn('session_id', 'text')
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('provider', 'text', (col) => col.notNull())
    .addColumn('model', 'text', (col) => col.notNull())
    .addColumn('input_tokens', 'integer', (col) => col.notNull())
    .addColumn('output_tokens', 'integer', (col) => col.notNull())
    .addColumn('cached_tokens', 'integer', (col) => col.notNull())
    .addColumn('total_tokens', 'integer', (col) => col.notNull())
    .addColumn('cost_usd', 'double precision', (col) => col.notNull())
    .addColumn('latency_ms', 'integer', (col) => col.notNull())
    .addColumn('ttft_ms', 'integer')
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('priced', 'integer', (col) => col.notNull())
    .addColumn('estimated', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  // Windows, per-agent and per-model slices of raw rows (the partial days at the edges of a window).
  await db.schema.createIndex('usage_records_created_idx').on('usage_records').column('created_at').execute();
  await db.schema
    .createIndex('usage_records_agent_created_idx')
    .on('usage_records')
    .columns(['agent_name', 'created_at'])
    .execute();
  await db.schema
    .createIndex('usage_records_model_created_idx')
    .on('usage_records')
    .columns(['model', 'created_at'])
    .execute();
  await db.schema.createIndex('usage_records_run_idx').on('usage_records').column('run_id').execute();

  // Per UTC day, agent and model totals, kept in the same transaction as the rows they sum, so whole
  // days of a window are read from here instead of scanning up to millions of usage rows.
  await db.schema
    .createTable('usage_daily')
    .addColumn('day', 'text', (col) => col.notNull())
    .addColumn('agent_name', 'text', (col) => col.notNull())
    .addColumn('model', 'text', (col) => col.notNull())
    .addColumn('request_count', 'bigint', (col) => col.notNull())
    .addColumn('input_tokens', 'bigint', (col) => col.notNull())
    .addColumn('output_tokens', 'bigint', (col) => col.notNull())
    .addColumn('cached_tokens', 'bigint', (col) => col.notNull())
    .addColumn('total_tokens', 'bigint', (col) => col.notNull())
    // Integer nano-dollars: sums of integers are exact on both engines, sums of doubles are not.
    .addColumn('cost_nanos', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('usage_daily_pk', ['day', 'agent_name', 'model'])
    .execute();
  await db.schema.createIndex('usage_daily_agent_day_idx').on('usage_daily').columns(['agent_name', 'day']).execute();

  await db.schema
    .createTable('risk_events')
    .addColumn('event_id', 'text', (col) => col.primaryKey())
    .addColumn('run_id', 'text')
    .addColumn('agent_name', 'text', (col) => col.notNull())
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('entity', 'text', (col) => col.notNull())
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  // Counting by type within a window (optionally per agent) is answered from these indexes alone.
  await db.schema.createIndex('risk_events_created_idx').on('risk_events').columns(['created_at', 'type']).execute();
  await db.schema
    .createIndex('risk_events_agent_created_idx')
    .on('risk_events')
    .columns(['agent_name', 'created_at', 'type'])
    .execute();
  await db.schema.createIndex('risk_events_run_idx').on('risk_events').column('run_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('risk_events').execute();
  await db.schema.dropTable('usage_daily').execute();
  await db.schema.dropTable('usage_records').execute();
}
