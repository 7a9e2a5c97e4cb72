import type { ColumnDefinitionBuilder, Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function up(db: Kysely<any>): Promise<void> {
  // The last picker a project was shown, so `autopilot pick <n>` can choose from it.
  await db.schema
    .createTable('autopilot_pickers')
    .addColumn('project_id', 'text', (col) => col.primaryKey())
    .addColumn('goal', 'text', (col) => col.notNull())
    .addColumn('candidates', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  // Schedule policies per mission (docs/autopilot.md "Schedule policies").
  const columns: [string, 'text' | 'integer', (col: ColumnDefinitionBuilder) => ColumnDefinitionBuilder][] = [
    ['timezone', 'text', (col) => col],
    ['overlap', 'text', (col) => col.notNull().defaultTo('skip')],
    ['catchup_window_seconds', 'integer', (col) => col],
    ['pause_after_failures', 'integer', (col) => col],
    ['jitter_seconds', 'integer', (col) => col.notNull().defaultTo(0)],
    ['consecutive_failures', 'integer', (col) => col.notNull().defaultTo(0)],
  ];
  for (const [name, type, build] of columns)
    await db.schema.alterTable('missions').addColumn(name, type, build).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function down(db: Kysely<any>): Promise<void> {
  for (const name of [
    'timezone',
    'overlap',
    'catchup_window_seconds',
    'pause_after_failures',
    'jitter_seconds',
    'consecutive_failures',
  ]) {
    await db.schema.alterTable('missions').dropColumn(name).execute();
  }
  await db.schema.dropTable('autopilot_pickers').execute();
}
