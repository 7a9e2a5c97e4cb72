import type { Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function up(db: Kysely<any>): Promise<void> {
  // The id of the last call settled on a hold: a settle tried again after its COMMIT lost its connection (it may
  // have committed) finds its own id and charges nothing twice.
  await db.schema.alterTable('budget_holds').addColumn('last_settle_id', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('budget_holds').dropColumn('last_settle_id').execute();
}
