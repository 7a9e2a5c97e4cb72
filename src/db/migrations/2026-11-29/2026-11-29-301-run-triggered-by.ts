import type { Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
type AnyDb = Kysely<any>;

/** A run started by a trigger keeps which inbox item started it (JSON: item id, source, event), for run detail. */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('runs').addColumn('triggered_by', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('runs').dropColumn('triggered_by').execute();
}
