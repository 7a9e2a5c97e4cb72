import type { Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function up(db: Kysely<any>): Promise<void> {
  // A2A push notification configs: one row per (agent, task, config id), owned by the principal that set it.
  await db.schema
    .createTable('a2a_push_configs')
    .addColumn('agent_name', 'text', (col) => col.notNull())
    .addColumn('task_id', 'text', (col) => col.notNull())
    .addColumn('config_id', 'text', (col) => col.notNull())
    .addColumn('owner', 'text', (col) => col.notNull())
    .addColumn('wire_version', 'text', (col) => col.notNull())
    .addColumn('config', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('a2a_push_configs_pk', ['agent_name', 'task_id', 'config_id'])
    .execute();
  // The outbox of task updates to POST: stored before the event is passed on, delivered in order per config
  // under a lease, retried with backoff; a row outlives the process that wrote it.
  await db.schema
    .createTable('a2a_push_deliveries')
    .addColumn('delivery_id', 'text', (col) => col.primaryKey())
    .addColumn('agent_name', 'text', (col) => col.notNull())
    .addColumn('task_id', 'text', (col) => col.notNull())
    .addColumn('config_id', 'text', (col) => col.notNull())
    .addColumn('content_type', 'text', (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (col) => col.notNull())
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema
    .createIndex('a2a_push_deliveries_due_idx')
    .on('a2a_push_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('a2a_push_deliveries_config_idx')
    .on('a2a_push_deliveries')
    .columns(['agent_name', 'task_id', 'config_id', 'delivery_id'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('a2a_push_deliveries').execute();
  await db.schema.dropTable('a2a_push_configs').execute();
}
