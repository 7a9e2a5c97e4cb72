import type { Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function up(db: Kysely<any>): Promise<void> {
  // JSON {"skills": [...] | null, "methods": [...] | null}: what an access token may use over A2A; NULL: no restriction.
  await db.schema.alterTable('access_tokens').addColumn('a2a_restrictions', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('access_tokens').dropColumn('a2a_restrictions').execute();
}
