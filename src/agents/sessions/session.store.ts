import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import { createDirectWrites, prepareQuery, type Database, type Write, type WriteQueue } from '../../db/index.js';
import type { ChatMessage } from '../../llm/index.js';

/** A session as stored; `owner` is the principal that created it (see auth ownerOf). */
export type SessionRecord = Selectable<Database['sessions']>;

/** Conversations kept per X-Session-Id. */
export interface SessionStore {
  /**
   * Creates the session for `agentName` and `owner` or touches its last_active, and returns it. A
   * session of another agent or owner is returned unchanged, so the caller can refuse it. A session
   * opened again is continued, so it is requested (listed as active); a new one is requested when
   * `named` (its caller chose the id).
   */
  open(sessionId: string, agentName: string, owner: string, now: string, named?: boolean): Promise<SessionRecord>;
  /** The first `count` stored messages (all when unset), oldest first. */
  messages(sessionId: string, count?: number): Promise<ChatMessage[]>;
  /** The stored messages and their stored size (bytes of their JSON, UTF-8), for a run to continue. */
  history(sessionId: string): Promise<{ messages: ChatMessage[]; bytes: number }>;
  /**
   * The insert of a session nobody can know yet (an id generated for this request), as a write to run
   * with the run's own insert: no upsert and no read back. Not requested until its caller continues it.
   */
  insertNew(session: SessionRecord): Write;
  /** Appends after the last stored message and bumps message_count and last_active atomically. */
  append(sessionId: string, messages: ChatMessage[], now: string): Promise<void>;
  /** The same append as a write, to commit with another (a run's end); a no-op for no messages. */
  appendWrite(sessionId: string, messages: ChatMessage[], now: string): Write;
  find(sessionId: string): Promise<SessionRecord | undefined>;
  /**
   * Requested sessions active at or after `since`, most recent first (ties by id); one page of them with
   * `page`. A one-off call's session (never named nor continued by its caller) is not one of them.
   */
  listActive(since: string, page?: { limit: number; offset: number }): Promise<SessionRecord[]>;
  countActive(since: string): Promise<number>;
}

/** `writes` carries the request path's writes (app.ts: the database's group commit), like the run store's. */
export function createSessionStore(db: Kysely<Database>, writes: WriteQueue = createDirectWrites(db)): SessionStore {
  // Every chat completion writes these: compiled once (db/prepared-query.ts).
  const insertSession = prepareQuery((trx, row: SessionRecord) => trx.insertInto('sessions').values(row));
  const countMessages = prepareQuery(
    (trx, { session_id, added, last_active }: { session_id: string; added: number; last_active: string }) =>
      trx
        .updateTable('sessions')
        .set((eb) => ({ message_count: eb('message_count', '+', added), last_active }))
        .where('session_id', '=', session_id)
        .returning('message_count'),
  );
  const insertMessages = prepareQuery((trx, rows: Insertable<Database['session_messages']>[]) =>
    trx.insertInto('session_messages').values(rows),
  );
  const appendWrite = (sessionId: string, messages: ChatMessage[], now: string): Write => {
    return async (trx) => {
      if (messages.length === 0) return;
      // The update locks the session row (PostgreSQL), so concurrent appends get distinct seq ranges.
      const updated = await countMessages(trx, { session_id: sessionId, added: messages.length, last_active: now });
      const row = updated.rows[0] as { message_count: number | string } | undefined;
      if (!row) throw new Error(`session ${sessionId} is not stored: its messages cannot be appended`);
      const first = Number(row.message_count) - messages.length;
      await insertMessages(
        trx,
        messages.map((message, index) => ({
          session_id: sessionId,
          seq: first + index,
          message: JSON.stringify(message),
          created_at: now,
        })),
      );
    };
  };
  // A literal, not a parameter: SQLite uses the partial index sessions_requested_last_active_idx only then.
  const requested = sql<boolean>`requested = 1`;
  const find = async (sessionId: string) => {
    const row = await db.selectFrom('sessions').selectAll().where('session_id', '=', sessionId).executeTakeFirst();
    return row && { ...row, message_count: Number(row.message_count) };
  };
  return {
    async open(sessionId, agentName, owner, now, named = true) {
      await db
        .insertInto('sessions')
        .values({
          session_id: sessionId,
          agent_name: agentName,
          owner,
          created_at: now,
          last_active: now,
          message_count: 0,
          requested: named ? 1 : 0,
        })
        .onConflict((oc) =>
          oc
            .column('session_id')
            // Sent back by its caller: a conversation they continue, so it counts as active from now on.
            .doUpdateSet({ last_active: now, requested: 1 })
            .where('sessions.agent_name', '=', agentName)
            .where('sessions.owner', '=', owner),
        )
        .execute();
      const session = await find(sessionId);
      if (!session) throw new Error(`session ${sessionId} vanished after upsert`);
      return session;
    },
    async messages(sessionId, count) {
      const rows = await db
        .selectFrom('session_messages')
        .select('message')
        .where('session_id', '=', sessionId)
        .$if(count !== undefined, (query) => query.where('seq', '<', count!))
        .orderBy('seq')
        .execute();
      return rows.map((row) => JSON.parse(row.message) as ChatMessage);
    },
    async history(sessionId) {
      const rows = await db
        .selectFrom('session_messages')
        .select('message')
        .where('session_id', '=', sessionId)
        .orderBy('seq')
        .execute();
      let bytes = 0;
      const messages = rows.map((row) => {
        bytes += Buffer.byteLength(row.message);
        return JSON.parse(row.message) as ChatMessage;
      });
      return { messages, bytes };
    },
    insertNew: (session) => async (trx) => void (await insertSession(trx, session)),
    async append(sessionId, messages, now) {
      if (messages.length === 0) return;
      await writes.write(appendWrite(sessionId, messages, now), { atomic: true });
    },
    appendWrite,
    find,
    async listActive(since, page) {
      let query = db
        .selectFrom('sessions')
        .selectAll()
        .where('last_active', '>=', since)
        .where(requested)
        .orderBy('last_active', 'desc')
        .orderBy('session_id', 'desc');
      if (page) query = query.limit(page.limit).offset(page.offset);
      const rows = await query.execute();
      return rows.map((row) => ({ ...row, message_count: Number(row.message_count) }));
    },
    async countActive(since) {
      const row = await db
        .selectFrom('sessions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('last_active', '>=', since)
        .where(requested)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}
