import { sql, type Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
type AnyDb = Kysely<any>;

/**
 * A session counts as active (admin session list, status, metrics gauge) once its caller asked for it: named it
 * or continued it. A session the gateway made up for a one-off call stays 0. Sessions from before stay listed.
 * Only requested sessions are listed and counted, so the window's index holds only them.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('sessions')
    .addColumn('requested', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.updateTable('sessions').set({ requested: 1 }).execute();
  await db.schema.dropIndex('sessions_last_active_idx').execute();
  await db.schema
    .createIndex('sessions_requested_last_active_idx')
    .on('sessions')
    .column('last_active')
    .where(sql.ref('requested'), '=', 1)
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('sessions_requested_last_active_idx').execute();
  await db.schema.createIndex('sessions_last_active_idx').on('sessions').column('last_active').execute();
  await db.schema.alterTable('sessions').dropColumn('requested').execute();
}
