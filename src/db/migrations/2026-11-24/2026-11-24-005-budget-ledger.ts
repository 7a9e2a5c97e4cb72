import type { Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
type AnyDb = Kysely<any>;

/**
 * Budgets shared by every replica, in integer nano-dollars: an account (an agent's day, an access token)
 * holds what finished calls spent and what live runs reserved; a hold is one run's reservation on it.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('budget_accounts')
    .addColumn('account_key', 'text', (col) => col.primaryKey())
    .addColumn('spent_nanos', 'bigint', (col) => col.notNull())
    .addColumn('reserved_nanos', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('holds', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('budget_holds')
    .addColumn('run_id', 'text', (col) => col.notNull())
    .addColumn('account_key', 'text', (col) => col.notNull())
    .addColumn('reserved_nanos', 'bigint', (col) => col.notNull())
    .addColumn('charged_nanos', 'bigint', (col) => col.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('budget_holds_pk', ['run_id', 'account_key'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('budget_holds').execute();
  await db.schema.dropTable('budget_accounts').execute();
}
