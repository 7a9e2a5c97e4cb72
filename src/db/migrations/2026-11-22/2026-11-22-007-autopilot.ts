import type { Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function up(db: Kysely<any>): Promise<void> {
  // One row: the installation's autopilot identity, on/off switch and enrollment with the hosted service.
  await db.schema
    .createTable('autopilot_instance')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('instance_id', 'text', (col) => col.notNull())
    .addColumn('enabled', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('tier', 'text', (col) => col.notNull())
    .addColumn('instance_secret', 'text')
    .addColumn('enrolled_url', 'text')
    .addColumn('quota', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('missions')
    .addColumn('mission_id', 'text', (col) => col.primaryKey())
    .addColumn('project_id', 'text', (col) => col.notNull())
    .addColumn('blueprint_id', 'text', (col) => col.notNull())
    .addColumn('blueprint_json', 'text', (col) => col.notNull())
    .addColumn('slots', 'text', (col) => col.notNull())
    .addColumn('goal', 'text')
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('schedule', 'text')
    .addColumn('next_run_at', 'text')
    .addColumn('budget_usd', 'double precision')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('approved_at', 'text')
    .execute();
  await db.schema
    .createIndex('missions_project_created_idx')
    .on('missions')
    .columns(['project_id', 'created_at'])
    .execute();
  // The scheduler's question: which scheduled missions are due.
  await db.schema.createIndex('missions_due_idx').on('missions').columns(['status', 'next_run_at']).execute();

  await db.schema
    .createTable('mission_executions')
    .addColumn('execution_id', 'text', (col) => col.primaryKey())
    .addColumn('mission_id', 'text', (col) => col.notNull().references('missions.mission_id').onDelete('cascade'))
    .addColumn('project_id', 'text', (col) => col.notNull())
    .addColumn('blueprint_id', 'text', (col) => col.notNull())
    .addColumn('attempt', 'integer', (col) => col.notNull())
    .addColumn('trigger', 'text', (col) => col.notNull())
    .addColumn('scheduled_for', 'text')
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('started_at', 'text', (col) => col.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('duration_ms', 'integer')
    .addColumn('cost_usd', 'double precision', (col) => col.notNull().defaultTo(0))
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('failure_class', 'text')
    .execute();
  // A tick is executed once: a second claim of the same (mission, tick) fails on this index.
  await db.schema
    .createIndex('mission_executions_tick_idx')
    .on('mission_executions')
    .columns(['mission_id', 'scheduled_for'])
    .unique()
    .execute();
  // The mission's executions in order (1, 2, …): timestamps alone can tie.
  await db.schema
    .createIndex('mission_executions_attempt_idx')
    .on('mission_executions')
    .columns(['mission_id', 'attempt'])
    .unique()
    .execute();
  await db.schema
    .createIndex('mission_executions_blueprint_idx')
    .on('mission_executions')
    .columns(['project_id', 'blueprint_id', 'started_at'])
    .execute();

  await db.schema
    .createTable('mission_steps')
    .addColumn('execution_id', 'text', (col) =>
      col.notNull().references('mission_executions.execution_id').onDelete('cascade'),
    )
    .addColumn('step_index', 'integer', (col) => col.notNull())
    .addColumn('node_id', 'text', (col) => col.notNull())
    .addColumn('run_id', 'text')
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('output', 'text', (col) => col.notNull())
    .addColumn('messages', 'text', (col) => col.notNull())
    .addColumn('cost_usd', 'double precision', (col) => col.notNull().defaultTo(0))
    .addColumn('input_tokens', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('output_tokens', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('model_used', 'text', (col) => col.notNull())
    .addColumn('latency_ms', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('started_at', 'text', (col) => col.notNull())
    .addColumn('finished_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('mission_steps_pk', ['execution_id', 'step_index'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mission_steps').execute();
  await db.schema.dropTable('mission_executions').execute();
  await db.schema.dropTable('missions').execute();
  await db.schema.dropTable('autopilot_instance').execute();
}
