import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import type { AnalyticsFilter, RiskCount, UsageGroup } from './analytics.types.js';

/** Whole UTC days `fromDay <= day < toDay` (`YYYY-MM-DD`); a missing bound is open. */
export interface DayRange {
  agentName?: string;
  fromDay?: string;
  toDay?: string;
}

/** Every sum is computed by the database (GROUP BY); callers only add up the few groups it returns. */
export interface AnalyticsQueryStore {
  /** Usage records in the window, summed per agent and model. */
  sumUsageRecords(filter: AnalyticsFilter): Promise<UsageGroup[]>;
  /** The daily totals of whole days, summed per agent and model. */
  sumDailyTotals(range: DayRange): Promise<UsageGroup[]>;
  countRiskEvents(filter: AnalyticsFilter): Promise<RiskCount[]>;
}

interface GroupRow {
  agent_name: string;
  model: string;
  request_count: string | number;
  input_tokens: string | number | null;
  output_tokens: string | number | null;
  cached_tokens: string | number | null;
  total_tokens: string | number | null;
  cost_nanos: string | number | null;
}

export function createAnalyticsQueryStore(db: Kysely<Database>): AnalyticsQueryStore {
  return {
    async sumUsageRecords({ agentName, missionId, missionStep, endUser, since, until }) {
      let query = db
        .selectFrom('usage_records')
        .select((eb) => [
          'agent_name',
          'model',
          eb.fn.countAll<number>().as('request_count'),
          eb.fn.sum<number>('input_tokens').as('input_tokens'),
          eb.fn.sum<number>('output_tokens').as('output_tokens'),
          eb.fn.sum<number>('cached_tokens').as('cached_tokens'),
          eb.fn.sum<number>('total_tokens').as('total_tokens'),
          // Stored costs are multiples of 1e-9, so this recovers the exact integer nano-dollars.
          sql<number>`sum(cast(round(cost_usd * 1000000000) as bigint))`.as('cost_nanos'),
        ])
        .groupBy(['agent_name', 'model']);
      if (agentName !== undefined) query = query.where('agent_name', '=', agentName);
      if (missionId !== undefined) query = query.where('mission_id', '=', missionId);
      if (missionStep !== undefined) query = query.where('mission_step', '=', missionStep);
      if (endUser !== undefined) query = query.where('end_user', '=', endUser);
      if (since !== undefined) query = query.where('created_at', '>=', since);
      if (until !== undefined) query = query.where('created_at', '<', until);
      return (await query.execute()).map(mapGroupRow);
    },

    async sumDailyTotals({ agentName, fromDay, toDay }) {
      let query = db
        .selectFrom('usage_daily')
        .select((eb) => [
          'agent_name',
          'model',
          eb.fn.sum<number>('request_count').as('request_count'),
          eb.fn.sum<number>('input_tokens').as('input_tokens'),
          eb.fn.sum<number>('output_tokens').as('output_tokens'),
          eb.fn.sum<number>('cached_tokens').as('cached_tokens'),
          eb.fn.sum<number>('total_tokens').as('total_tokens'),
          eb.fn.sum<number>('cost_nanos').as('cost_nanos'),
        ])
        .groupBy(['agent_name', 'model']);
      if (agentName !== undefined) query = query.where('agent_name', '=', agentName);
      if (fromDay !== undefined) query = query.where('day', '>=', fromDay);
      if (toDay !== undefined) query = query.where('day', '<', toDay);
      return (await query.execute()).map(mapGroupRow);
    },

    async countRiskEvents({ agentName, missionId, missionStep, endUser, since, until }) {
      let query = db
        .selectFrom('risk_events')
        .select((eb) => ['type', eb.fn.countAll<number | string>().as('count')])
        .groupBy('type');
      if (agentName !== undefined) query = query.where('agent_name', '=', agentName);
      if (missionId !== undefined) query = query.where('mission_id', '=', missionId);
      if (missionStep !== undefined) query = query.where('mission_step', '=', missionStep);
      if (endUser !== undefined) query = query.where('end_user', '=', endUser);
      if (since !== undefined) query = query.where('created_at', '>=', since);
      if (until !== undefined) query = query.where('created_at', '<', until);
      return (await query.execute()).map((row) => ({ type: row.type, count: Number(row.count) }));
    },
  };
}

/** PostgreSQL returns counts and sums of bigint as strings. */
function mapGroupRow(row: GroupRow): UsageGroup {
  return {
    agent_name: row.agent_name,
    model: row.model,
    request_count: Number(row.request_count),
    input_tokens: Number(row.input_tokens ?? 0),
    output_tokens: Number(row.output_tokens ?? 0),
    cached_tokens: Number(row.cached_tokens ?? 0),
    total_tokens: Number(row.total_tokens ?? 0),
    cost_nanos: Number(row.cost_nanos ?? 0),
  };
}
