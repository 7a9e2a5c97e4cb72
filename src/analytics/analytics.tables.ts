import type { ColumnType } from 'kysely';

/**
 * The analytics tables (migration 2026-11-22-003-analytics). Timestamps are ISO 8601 UTC strings and
 * booleans 0/1, as everywhere. These entries belong in db/schema.ts `Database`; until they are there,
 * the stores widen their Kysely with `withTables<AnalyticsTables>()`. Nothing here imports another
 * folder (db/ may not), so the interfaces can move into db/schema.ts as they are.
 */
// A type alias, not an interface: Kysely's withTables needs a type with an implicit index signature.
export type AnalyticsTables = {
  usage_records: UsageRecordsTable;
  usage_daily: UsageDailyTable;
  risk_events: RiskEventsTable;
};

/** PostgreSQL returns bigint (and sums) as strings, so every read of one goes through Number(). */
type Int8 = ColumnType<string | number, number, number>;

/** One model call. */
export interface UsageRecordsTable {
  usage_id: string;
  run_id: string;
  step_id: string | null;
  agent_name: string;
  session_id: string | null;
  /** The run's source (bus RunSource). */
  source: 'chat' | 'agui' | 'webhook' | 'poller' | 'listener' | 'a2a' | 'autopilot';
  /** The configured provider name, the part of `model` before the slash. */
  provider: string;
  /** `<provider>/<model id>`. */
  model: string;
  /** Includes the cached input tokens. */
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  total_tokens: number;
  /** Rounded to 1e-9 USD. */
  cost_usd: number;
  latency_ms: number;
  /** Time to first token of a streamed call; null for non-streamed calls. */
  ttft_ms: number | null;
  status: 'ok' | 'error';
  /** 0 when no price was known and cost_usd is 0 for that reason. */
  priced: number;
  /** 1 when the provider reported no usage and the tokens were counted locally. */
  estimated: number;
  created_at: string;
}

/** Totals of usage_records per UTC day (`YYYY-MM-DD`), agent and model. */
export interface UsageDailyTable {
  day: string;
  agent_name: string;
  model: string;
  request_count: Int8;
  input_tokens: Int8;
  output_tokens: Int8;
  cached_tokens: Int8;
  total_tokens: Int8;
  cost_nanos: Int8;
}

/** One guardrail hit. */
export interface RiskEventsTable {
  event_id: string;
  /** Null for a hit outside any run. */
  run_id: string | null;
  agent_name: string;
  type: 'pii' | 'content_filter' | 'hallucination';
  /** What was found (a PII type, a blocklist entry, `ungrounded_answer`), never the matched text. */
  entity: string;
  action: string;
  created_at: string;
}
