import type { Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function up(db: Kysely<any>): Promise<void> {
  // An access token's spend (max_cost_usd) is the sum of its runs' costs, read when its budget account opens.
  await db.schema.createIndex('runs_token_idx').on('runs').columns(['token_id', 'started_at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('runs_token_idx').execute();
}
