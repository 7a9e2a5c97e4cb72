import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/index.js';
import { ACTIVE_RUN_STATUSES, type AgentRunCounts } from './run.types.js';

/** Counts over the shared store, so every replica reports the same numbers. */
export interface RunCountQueries {
  countByAgent(): Promise<Map<string, AgentRunCounts>>;
  /** Runs running or paused, in any process. */
  countActive(): Promise<number>;
  /** Runs started in [since, until) grouped by UTC hour or day of their start; only buckets that have runs. */
  runSeries(filter: RunSeriesFilter): Promise<RunSeriesBucket[]>;
}

export interface RunSeriesFilter {
  since: string;
  until: string;
  bucket: 'hour' | 'day';
}

export interface RunSeriesBucket {
  /** The bucket's start, canonical ISO (`…T13:00:00.000Z`). */
  start: string;
  runs: number;
  failed: number;
  cost_usd: number;
}

/** Characters of a stored timestamp (`2026-01-31T13:45:00.000Z`) that name its hour or its day. */
const BUCKET_PREFIX = { hour: 13, day: 10 } as const;
const BUCKET_SUFFIX = { hour: ':00:00.000Z', day: 'T00:00:00.000Z' } as const;

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
    async runSeries({ since, until, bucket }) {
      // Timestamps are stored as canonical ISO text on both engines: a prefix of it is the bucket.
      const key = sql<string>`substr(started_at, 1, ${sql.lit(BUCKET_PREFIX[bucket])})`;
      const rows = await db
        .selectFrom('runs')
        .select((eb) => [
          key.as('bucket'),
          eb.fn.countAll<number>().as('runs'),
          eb.fn.sum<number>(eb.case().when('status', '=', 'failed').then(1).else(0).end()).as('failed'),
          eb.fn.sum<number>('cost_usd').as('cost_usd'),
        ])
        .where('started_at', '>=', since)
        .where('started_at', '<', until)
        .groupBy(key)
        .orderBy(key)
        .execute();
      return rows.map((row) => ({
        start: `${row.bucket}${BUCKET_SUFFIX[bucket]}`,
        runs: Number(row.runs),
        failed: Number(row.failed),
        cost_usd: Number(row.cost_usd),
      }));
    },
  };
}
