import type { Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function up(db: Kysely<any>): Promise<void> {
  // The latest pause/resume/cancel asked of a run by any process: pub/sub may drop the message, this does not.
  await db.schema.alterTable('runs').addColumn('control_request', 'text').execute();
  // Refreshed by the executing process while the run is live, so other replicas can tell a dead executor.
  await db.schema.alterTable('runs').addColumn('heartbeat_at', 'text').execute();

  // A finished run's event log (JSON array of RunEvent), kept for replay after the bus forgot it.
  await db.schema
    .createTable('run_event_logs')
    .addColumn('run_id', 'text', (col) => col.primaryKey().references('runs.run_id').onDelete('cascade'))
    .addColumn('events', 'text', (col) => col.notNull())
    .addColumn('event_count', 'integer', (col) => col.notNull())
    .addColumn('persisted_at', 'text', (col) => col.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('run_event_logs').execute();
  await db.schema.alterTable('runs').dropColumn('heartbeat_at').execute();
  await db.schema.alterTable('runs').dropColumn('control_request').execute();
}
