import type { Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
type AnyDb = Kysely<any>;

/**
 * The end user a caller named (Chat Completions `user`): kept on the run, its usage records and its risk
 * events, so the admin runs list and analytics can be filtered by it. Earlier rows have none.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('runs').addColumn('end_user', 'text').execute();
  await db.schema.createIndex('runs_end_user_started_idx').on('runs').columns(['end_user', 'started_at']).execute();
  await db.schema.alterTable('usage_records').addColumn('end_user', 'text').execute();
  await db.schema
    .createIndex('usage_records_end_user_created_idx')
    .on('usage_records')
    .columns(['end_user', 'created_at'])
    .execute();
  await db.schema.alterTable('risk_events').addColumn('end_user', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('risk_events').dropColumn('end_user').execute();
  await db.schema.dropIndex('usage_records_end_user_created_idx').execute();
  await db.schema.alterTable('usage_records').dropColumn('end_user').execute();
  await db.schema.dropIndex('runs_end_user_started_idx').execute();
  await db.schema.alterTable('runs').dropColumn('end_user').execute();
}
