import type { Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
type AnyDb = Kysely<any>;

/**
 * Curated samples live in the database (one JSONL line each), so every replica sharing it sees every
 * sample; rows from before keep a null line and their text stays in the dataset's old JSONL file.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('curator_samples').addColumn('line', 'text').execute();
  // The dataset's sample_count that counted this sample: the order samples were curated in, across replicas.
  await db.schema.alterTable('curator_samples').addColumn('position', 'integer').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('curator_samples').dropColumn('position').execute();
  await db.schema.alterTable('curator_samples').dropColumn('line').execute();
}
