import type { Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function up(db: Kysely<any>): Promise<void> {
  // The principal that created a session or an A2A task (e.g. "token:tok_…", "operator:jwt:alice").
  // Rows written before this migration keep NULL: no caller owns them, only operators read them.
  await db.schema.alterTable('sessions').addColumn('owner', 'text').execute();
  await db.schema.alterTable('a2a_tasks').addColumn('owner', 'text').execute();
  await db.schema
    .createIndex('a2a_tasks_agent_owner_idx')
    .on('a2a_tasks')
    .columns(['agent_name', 'owner', 'status_timestamp'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('a2a_tasks_agent_owner_idx').execute();
  await db.schema.alterTable('a2a_tasks').dropColumn('owner').execute();
  await db.schema.alterTable('sessions').dropColumn('owner').execute();
}
