import type { Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('trigger_events')
    .addColumn('event_id', 'text', (col) => col.primaryKey())
    .addColumn('trigger_kind', 'text', (col) => col.notNull())
    .addColumn('trigger_name', 'text', (col) => col.notNull())
    .addColumn('event', 'text', (col) => col.notNull())
    .addColumn('dedupe_key', 'text')
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (col) => col.notNull())
    .addColumn('last_error', 'text')
    .addColumn('received_at', 'text', (col) => col.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('run_ids', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('completed_handlers', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'text')
    .execute();
  // A message redelivered by its broker (or an item a poller saw before) is a duplicate, also across replicas.
  // Events without an id have a NULL key, which both engines treat as distinct.
  await db.schema
    .createIndex('trigger_events_dedupe_idx')
    .on('trigger_events')
    .columns(['trigger_kind', 'trigger_name', 'dedupe_key'])
    .unique()
    .execute();
  await db.schema
    .createIndex('trigger_events_due_idx')
    .on('trigger_events')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('trigger_events_received_idx')
    .on('trigger_events')
    .columns(['status', 'received_at'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('trigger_events').execute();
}
