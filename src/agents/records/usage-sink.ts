import type { RunSource } from '../../bus/index.js';

/** One model call as the runtime reports it (the analytics recorder's input shape). */
export interface ModelUsageRecord {
  run_id: string;
  step_id: string;
  agent_name: string;
  session_id: string | null;
  source: RunSource;
  provider: string;
  /** `<provider>/<model id>`. */
  model: string;
  /** All input tokens, cached ones included. */
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  /** Already rounded by the run's pricing: the same value the run's cost adds up. */
  cost_usd: number;
  latency_ms: number;
  /** Every runtime call is streamed; null when it failed before its first part. */
  ttft_ms: number | null;
  status: 'ok' | 'error';
  priced: boolean;
  estimated: boolean;
  created_at: string;
}

/** One guardrail hit in a run. */
export interface RiskEventRecord {
  run_id: string;
  agent_name: string;
  type: 'pii' | 'content_filter' | 'hallucination';
  /** A PII type, a blocklist entry or `/pattern/`, `ungrounded_answer`: never the matched text. */
  entity: string;
  action: string;
  created_at: string;
}

/**
 * Where usage and guardrail hits go (app.ts: the analytics recorder). agents/ may not import analytics/,
 * so it declares what it needs. Each promise resolves once the record is committed.
 */
export interface UsageSink {
  record(usage: ModelUsageRecord): Promise<void>;
  recordRisk(event: RiskEventRecord): Promise<void>;
}
