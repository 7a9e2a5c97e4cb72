import type { Kysely } from 'kysely';
import type { Database } from '../../db/index.js';

/** What runs have spent, for budgets: read when a budget account opens, not per model call. */
export interface RunSpendQueries {
  /** The cost of the agent's runs started at or after `since` (ISO 8601). */
  spentByAgentSince(agentName: string, since: string): Promise<number>;
  /** The cost of every run started with the access token. */
  spentByToken(tokenId: string): Promise<number>;
}

export function createRunSpendQueries(db: Kysely<Database>): RunSpendQueries {
  return {
    async spentByAgentSince(agentName, since) {
      const row = await db
        .selectFrom('runs')
        .select((eb) => eb.fn.sum<number>('cost_usd').as('spent'))
        .where('agent_name', '=', agentName)
        .where('started_at', '>=', since)
        .executeTakeFirst();
      return Number(row?.spent ?? 0);
    },
    async spentByToken(tokenId) {
      const row = await db
        .selectFrom('runs')
        .select((eb) => eb.fn.sum<number>('cost_usd').as('spent'))
        .where('token_id', '=', tokenId)
        .executeTakeFirst();
      return Number(row?.spent ?? 0);
    },
  };
}
