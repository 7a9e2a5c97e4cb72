import type { Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function up(db: Kysely<any>): Promise<void> {
  // The execution lease of several replicas: the executing process renews it; once it is stale, one live
  // replica takes the execution for interrupted and runs the mission again.
  await db.schema.alterTable('mission_executions').addColumn('heartbeat_at', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mission_executions').dropColumn('heartbeat_at').execute();
}
