import type { Kysely } from 'kysely';
import type { Database } from '../../db/index.js';

export interface AgentStore {
  /** Records each name the first time it is seen and returns every agent's registered_at. */
  register(names: string[], now: string): Promise<Map<string, string>>;
}

export function createAgentStore(db: Kysely<Database>): AgentStore {
  return {
    async register(names, now) {
      if (names.length > 0) {
        await db
          .insertInto('agents')
          .values(names.map((name) => ({ name, registered_at: now })))
          .onConflict((oc) => oc.column('name').doNothing())
          .execute();
      }
      const rows = await db.selectFrom('agents').select(['name', 'registered_at']).execute();
      return new Map(rows.map((row) => [row.name, row.registered_at]));
    },
  };
}
