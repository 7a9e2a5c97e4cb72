import type { Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // The last picker a project was shown, so `autopilot pick <n>` can choose from it.
  await db.schema
    .createTable('autopilot_pickers')
    .addColumn('project_id', 'text', (col) => col.primaryKey())
    .addColumn('goal', 'text', (col) => col.notNull())
    .addColumn('candidates', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('autopilot_pickers').execute();
}
