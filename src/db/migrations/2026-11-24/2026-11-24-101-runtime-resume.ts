import type { Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function up(db: Kysely<any>): Promise<void> {
  // How many processes have executed the run (1, plus one per takeover), and the step it last resumed after.
  await db.schema
    .alterTable('runs')
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('runs').addColumn('resumed_from_step', 'integer').execute();
  // JSON: the screened conversation and the run's settings, what a takeover needs besides the stored steps.
  await db.schema.alterTable('runs').addColumn('resume_input', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('runs').dropColumn('resume_input').execute();
  await db.schema.alterTable('runs').dropColumn('resumed_from_step').execute();
  await db.schema.alterTable('runs').dropColumn('attempts').execute();
}
