import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/index.js';
import type { ResponseObject } from './responses.schema.js';

/** The part of the database the response store needs. */
export type ResponseTables = Pick<Database, 'responses'>;

/** A stored response: its Response object and where its conversation lives. */
export interface StoredResponse {
  response: ResponseObject;
  owner: string;
  agentName: string;
  runId: string;
  sessionId: string;
  /** The session's message count after this response's turn. */
  turnEnd: number;
}

/** Responses kept for retrieval and `previous_response_id`; every read is scoped to the caller that created them. */
export interface ResponseStore {
  insert(stored: StoredResponse, now: string): Promise<void>;
  /** Undefined for an unknown id and for another owner's response alike. */
  find(responseId: string, owner: string): Promise<StoredResponse | undefined>;
  /** False when there was nothing of the owner's to delete. */
  delete(responseId: string, owner: string): Promise<boolean>;
}

export function createResponseStore<DB extends ResponseTables>(database: Kysely<DB>): ResponseStore {
  // Kysely's table map is invariant, and this store touches only its own table.
  const db = database as unknown as Kysely<ResponseTables>;
  return {
    async insert(stored, now) {
      await db
        .insertInto('responses')
        .values({
          response_id: stored.response.id,
          owner: stored.owner,
          agent_name: stored.agentName,
          run_id: stored.runId,
          session_id: stored.sessionId,
          turn_end: stored.turnEnd,
          status: stored.response.status,
          response: JSON.stringify(stored.response),
          created_at: now,
        })
        .execute();
    },
    async find(responseId, owner) {
      const row = await db
        .selectFrom('responses')
        .selectAll()
        .where('response_id', '=', responseId)
        .where('owner', '=', owner)
        .executeTakeFirst();
      return row && mapRow(row);
    },
    async delete(responseId, owner) {
      const result = await db
        .deleteFrom('responses')
        .where('response_id', '=', responseId)
        .where('owner', '=', owner)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

function mapRow(row: Selectable<Database['responses']>): StoredResponse {
  return {
    response: JSON.parse(row.response) as ResponseObject,
    owner: row.owner,
    agentName: row.agent_name,
    runId: row.run_id,
    sessionId: row.session_id,
    turnEnd: Number(row.turn_end),
  };
}
