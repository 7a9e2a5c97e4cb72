import type { Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function up(db: Kysely<any>): Promise<void> {
  // One A2A task per row: the SDK's task as proto-JSON, plus the columns tasks/list filters and sorts on.
  await db.schema
    .createTable('a2a_tasks')
    .addColumn('task_id', 'text', (col) => col.primaryKey())
    .addColumn('agent_name', 'text', (col) => col.notNull())
    .addColumn('context_id', 'text', (col) => col.notNull())
    .addColumn('run_id', 'text')
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('status_timestamp', 'text', (col) => col.notNull())
    .addColumn('task', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('a2a_tasks_agent_status_idx')
    .on('a2a_tasks')
    .columns(['agent_name', 'status_timestamp', 'task_id'])
    .execute();
  await db.schema
    .createIndex('a2a_tasks_agent_context_idx')
    .on('a2a_tasks')
    .columns(['agent_name', 'context_id'])
    .execute();
  await db.schema.createIndex('a2a_tasks_run_idx').on('a2a_tasks').column('run_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('a2a_tasks').execute();
}
