import type { Kysely } from 'kysely';

// Migrations are frozen in time: they take Kysely<any> and never import the app's current types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('agents')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('registered_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('access_tokens')
    .addColumn('token_id', 'text', (col) => col.primaryKey())
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('token_suffix', 'text', (col) => col.notNull())
    .addColumn('agent_name', 'text', (col) => col.notNull())
    .addColumn('scopes', 'text', (col) => col.notNull())
    .addColumn('single_use', 'integer', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('use_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('max_cost_usd', 'double precision')
    .execute();
  await db.schema
    .createIndex('access_tokens_agent_idx')
    .on('access_tokens')
    .columns(['agent_name', 'created_at'])
    .execute();

  await db.schema
    .createTable('kv')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('kv').execute();
  await db.schema.dropTable('access_tokens').execute();
  await db.schema.dropTable('agents').execute();
}
