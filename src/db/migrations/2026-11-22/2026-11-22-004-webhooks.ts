import type { Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('delivery_id', 'text', (col) => col.primaryKey())
    .addColumn('webhook', 'text', (col) => col.notNull())
    .addColumn('event', 'text', (col) => col.notNull())
    .addColumn('dedupe_key', 'text', (col) => col.notNull())
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('headers', 'text', (col) => col.notNull())
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
  // The unique constraint is what makes a redelivered event a duplicate, also across replicas.
  await db.schema
    .createIndex('webhook_deliveries_dedupe_idx')
    .on('webhook_deliveries')
    .columns(['webhook', 'dedupe_key'])
    .unique()
    .execute();
  // The worker's claim query and the operators' list by status.
  await db.schema
    .createIndex('webhook_deliveries_due_idx')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_received_idx')
    .on('webhook_deliveries')
    .columns(['status', 'received_at'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute();
}
