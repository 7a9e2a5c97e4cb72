import type { Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('runs')
    .addColumn('run_id', 'text', (col) => col.primaryKey())
    .addColumn('agent_name', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('session_id', 'text')
    .addColumn('model', 'text', (col) => col.notNull())
    .addColumn('started_at', 'text', (col) => col.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('total_tokens', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('input_tokens', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('output_tokens', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('cost_usd', 'double precision', (col) => col.notNull().defaultTo(0))
    .addColumn('steps', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('output', 'text')
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('token_id', 'text')
    .execute();
  // Listing is newest first, optionally filtered by agent or status.
  await db.schema.createIndex('runs_started_idx').on('runs').columns(['started_at', 'run_id']).execute();
  await db.schema.createIndex('runs_agent_started_idx').on('runs').columns(['agent_name', 'started_at']).execute();
  await db.schema.createIndex('runs_status_started_idx').on('runs').columns(['status', 'started_at']).execute();
  await db.schema.createIndex('runs_session_idx').on('runs').column('session_id').execute();

  await db.schema
    .createTable('run_steps')
    .addColumn('step_id', 'text', (col) => col.primaryKey())
    .addColumn('run_id', 'text', (col) => col.notNull().references('runs.run_id').onDelete('cascade'))
    .addColumn('step_index', 'integer', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('started_at', 'text', (col) => col.notNull())
    .addColumn('finished_at', 'text', (col) => col.notNull())
    .addColumn('latency_ms', 'integer', (col) => col.notNull())
    .addColumn('input_tokens', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('output_tokens', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('cost_usd', 'double precision', (col) => col.notNull().defaultTo(0))
    .addColumn('prompt_log', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('run_steps_run_idx').on('run_steps').columns(['run_id', 'step_index']).unique().execute();

  await db.schema
    .createTable('sessions')
    .addColumn('session_id', 'text', (col) => col.primaryKey())
    .addColumn('agent_name', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('last_active', 'text', (col) => col.notNull())
    .addColumn('message_count', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('sessions_last_active_idx').on('sessions').column('last_active').execute();

  await db.schema
    .createTable('session_messages')
    .addColumn('session_id', 'text', (col) => col.notNull().references('sessions.session_id').onDelete('cascade'))
    .addColumn('seq', 'integer', (col) => col.notNull())
    .addColumn('message', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('session_messages_pk', ['session_id', 'seq'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('session_messages').execute();
  await db.schema.dropTable('sessions').execute();
  await db.schema.dropTable('run_steps').execute();
  await db.schema.dropTable('runs').execute();
}
