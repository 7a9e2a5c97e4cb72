import type { Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
type AnyDb = Kysely<any>;

/** An access token's own rate limits, set when it is created: requests and model tokens per minute. */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('access_tokens').addColumn('requests_per_minute', 'integer').execute();
  await db.schema.alterTable('access_tokens').addColumn('tokens_per_minute', 'integer').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('access_tokens').dropColumn('tokens_per_minute').execute();
  await db.schema.alterTable('access_tokens').dropColumn('requests_per_minute').execute();
}
