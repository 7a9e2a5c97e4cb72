import type { Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
type AnyDb = Kysely<any>;

/**
 * One-time dashboard login codes (`agent-gateway ui`), shared by every replica: a code issued by one opens on
 * any. Only the SHA-256 of the code is stored, and the credential sealed with a key derived from the code.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('ui_login_codes')
    .addColumn('code_hash', 'text', (col) => col.primaryKey())
    .addColumn('sealed_credential', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('ui_login_codes_expires_idx').on('ui_login_codes').column('expires_at').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('ui_login_codes').execute();
}
