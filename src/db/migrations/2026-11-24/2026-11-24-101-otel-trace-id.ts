import type { Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
type AnyDb = Kysely<any>;

/**
 * OpenTelemetry: a run keeps its trace id (run detail); an inbox item and a mission keep the `traceparent`
 * of the request that stored them, so the runs they start later (after a restart too) link back to it.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('runs').addColumn('trace_id', 'text').execute();
  await db.schema.alterTable('inbox_items').addColumn('traceparent', 'text').execute();
  await db.schema.alterTable('missions').addColumn('traceparent', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('missions').dropColumn('traceparent').execute();
  await db.schema.alterTable('inbox_items').dropColumn('traceparent').execute();
  await db.schema.alterTable('runs').dropColumn('trace_id').execute();
}
