import type { Kysely } from 'kysely';
import type { Database } from '../../db/index.js';
import { ACTIVE_RUN_STATUSES, type AgentRunCounts } from './run.types.js';

/** Counts over the shared store, so every replica reports the same numbers. */
export interface RunCountQueries {
  countByAgent(): Promise<Map<string, AgentRunCounts>>;
  /** Runs running or paused, in any process. */
  countActive(): Promise<number>;
}

export function createRunCountQueries(db: Kysely<Database>): RunCountQueries {
  return {
    async countByAgent() {
      const rows = await db
        .selectFrom('runs')
        .select((eb) => [
          'agent_name',
          eb.fn.countAll<number>().as('total'),
          eb.fn.sum<number>(eb.case().when('status', 'in', ACTIVE_RUN_STATUSES).then(1).else(0).end()).as('active'),
        ])
        .groupBy('agent_name')
        .execute();
      // PostgreSQL returns count and sum as strings (bigint).
      return new Map(rows.map((row) => [row.agent_name, { total: Number(row.total), active: Number(row.active) }]));
    },
    async countActive() {
      const row = await db
        .selectFrom('runs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', 'in', ACTIVE_RUN_STATUSES)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}
