import type { Kysely } from 'kysely';
import type { Database } from '../../db/index.js';

/** What runs have spent, for budgets: read when a budget account opens, not per model call. */
export interface RunSpendQueries {
  /** The cost of the agent's runs started at or after `since` (ISO 8601). */
  spentByAgentSince(agentName: string, since: string): Promise<number>;
  /** The cost of every run started with the access token. */
  spentByToken(tokenId: string): Promise<number>;
  /**
   * The mean output tokens of the agent's last `calls` answered model calls on `model` (usage records, so it
   * outlives the process); undefined before its first.
   */
  averageOutputTokens(agentName: string, model: string, calls: number): Promise<number | undefined>;
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
    async averageOutputTokens(agentName, model, calls) {
      // usage_records_agent_created_idx: the newest of the agent's records, then filtered.
      const rows = await db
        .selectFrom('usage_records')
        .select('output_tokens')
        .where('agent_name', '=', agentName)
        .where('model', '=', model)
        .where('status', '=', 'ok')
        .orderBy('created_at', 'desc')
        .limit(calls)
        .execute();
      if (rows.length === 0) return undefined;
      return rows.reduce((sum, row) => sum + Number(row.output_tokens), 0) / rows.length;
    },
  };
}
