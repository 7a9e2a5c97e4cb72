import type { RunSource } from '../bus/index.js';
import type { RiskEventsTable, UsageRecordsTable } from '../db/index.js';

export type RiskType = RiskEventsTable['type'];

/** One model call as the runtime reports it; missing ids and times are filled in when it is accepted. */
export interface UsageRecordInput {
  /** Generated (`use_…`) when absent. */
  usage_id?: string;
  run_id: string;
  step_id?: string | null;
  agent_name: string;
  session_id?: string | null;
  /** A mission step's call: its mission and step (node id). */
  mission_id?: string | null;
  mission_step?: string | null;
  /** The end user the run's caller named (Chat Completions `user`). */
  end_user?: string | null;
  source: RunSource;
  /** `<provider>/<model id>`. */
  model: string;
  /** Defaults to the part of `model` before the slash. */
  provider?: string;
  /** All input tokens, cached ones included. */
  input_tokens: number;
  output_tokens: number;
  cached_tokens?: number;
  /** Defaults to input_tokens + output_tokens. */
  total_tokens?: number;
  cost_usd: number;
  latency_ms: number;
  ttft_ms?: number | null;
  status: 'ok' | 'error';
  priced: boolean;
  estimated: boolean;
  /** ISO 8601; defaults to now. */
  created_at?: string;
}

/** One guardrail hit as the runtime reports it. */
export interface RiskEventInput {
  /** Generated (`evt_…`) when absent. */
  event_id?: string;
  run_id: string | null;
  agent_name: string;
  mission_id?: string | null;
  mission_step?: string | null;
  /** The end user the run's caller named (Chat Completions `user`). */
  end_user?: string | null;
  type: RiskType;
  entity: string;
  action: string;
  created_at?: string;
}

export type UsageRow = UsageRecordsTable;
export type RiskRow = RiskEventsTable;

/** Rows committed together in one transaction. */
export interface AnalyticsBatch {
  usage: UsageRow[];
  risks: RiskRow[];
}

/** Which records an aggregation covers: `since` inclusive, `until` exclusive, both canonical ISO strings. */
export interface AnalyticsFilter {
  agentName?: string;
  /** Only the calls of this mission's steps (read from the usage records: the daily totals have no mission). */
  missionId?: string;
  /** With missionId: only this step (node id) of it. */
  missionStep?: string;
  /** Only the records of runs whose caller named this end user (read from the usage records). */
  endUser?: string;
  since?: string;
  until?: string;
}

/** Totals of the usage records of one agent and model. */
export interface UsageGroup {
  agent_name: string;
  model: string;
  request_count: number;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  total_tokens: number;
  /** Integer nano-dollars, so adding groups up is exact. */
  cost_nanos: number;
}

export interface RiskCount {
  type: RiskType;
  count: number;
}
