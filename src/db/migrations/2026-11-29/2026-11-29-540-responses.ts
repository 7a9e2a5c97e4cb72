import type { Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
type AnyDb = Kysely<any>;

/**
 * Responses of `POST /v1/responses` kept for `GET /v1/responses/{id}` and `previous_response_id`: the Response
 * object as JSON, whose caller it belongs to, and the session its conversation lives in, with the session's
 * message count after its turn (a response continued from an earlier point than the session's end forks it).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('responses')
    .addColumn('response_id', 'text', (col) => col.primaryKey())
    .addColumn('owner', 'text', (col) => col.notNull())
    .addColumn('agent_name', 'text', (col) => col.notNull())
    .addColumn('run_id', 'text', (col) => col.notNull())
    .addColumn('session_id', 'text', (col) => col.notNull())
    .addColumn('turn_end', 'integer', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('response', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('responses').execute();
}
