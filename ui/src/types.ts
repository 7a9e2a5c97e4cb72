export type RunStatus = 'running' | 'paused' | 'completed' | 'failed' | 'cancelled' | 'interrupted';

export interface RunItem {
  run_id: string;
  agent_name: string;
  status: RunStatus;
  started_at: string;
  finished_at: string | null;
  total_tokens: number;
  cost_usd: number;
  steps: number;
  source: string;
  session_id: string | null;
  model: string;
}

export interface StepDetail {
  step_id: string;
  step_index: number;
  kind: 'model' | 'tool';
  name: string;
  status: 'completed' | 'failed';
  started_at: string;
  finished_at: string;
  latency_ms: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  prompt_log: Record<string, unknown>;
}

/** GET /api/v1/admin/runs/timeseries */
export interface RunSeries {
  bucket: 'hour' | 'day';
  since: string;
  until: string;
  points: { start: string; runs: number; failed: number; cost_usd: number }[];
}

export interface RunDetail extends RunItem {
  input_tokens: number;
  output_tokens: number;
  output: string | null;
  error: { code: string; message: string } | null;
  token_id: string | null;
  step_details: StepDetail[];
}

export interface AgentSummary {
  name: string;
  model: string;
  status: 'idle' | 'running';
  total_runs: number;
  registered_at: string;
}

export interface AgentDetail extends AgentSummary {
  system_prompt: string;
  tools: string[];
  config: Record<string, unknown>;
  description: string;
  capabilities: string[];
}

export interface SystemStatus {
  status: 'healthy' | 'degraded';
  reasons: string[];
  agents: number;
  active_runs: number;
  active_sessions: number;
  uptime_seconds: number;
}

export interface CostReport {
  total_cost_usd: number;
  by_model: Record<string, number>;
  by_agent: Record<string, number>;
  record_count: number;
}

export interface UsageReport {
  total_tokens: number;
  by_model: Record<string, number>;
  by_agent: Record<string, number>;
  record_count: number;
}

export interface ModelComparison {
  model: string;
  total_cost_usd: number;
  total_tokens: number;
  request_count: number;
  cost_per_1k_tokens: number;
}

export interface RiskReport {
  pii_events: number;
  hallucination_flags: number;
  content_filter_events: number;
  total_events: number;
}

export interface TokenView {
  token_id: string;
  agent_name: string;
  scopes: string[];
  single_use: boolean;
  status: 'active' | 'revoked' | 'used' | 'expired';
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  use_count: number;
  token_suffix: string;
  max_cost_usd: number | null;
}

export interface TriggerView {
  kind: 'webhook' | 'poller' | 'listener';
  name: string;
  source: string;
  state: string;
  last_error: string | null;
  next_attempt_at: string | null;
  counts: { received: number; duplicates: number; rejected: number; runs_started: number };
  inbox: {
    pending: number;
    running: number;
    done: number;
    dead: number;
    ignored: number;
    oldest_pending_age_seconds: number;
  };
  last_event_at: string | null;
}

export interface Delivery {
  id: string;
  kind: 'webhook' | 'poller' | 'listener';
  trigger: string;
  event: string;
  status: 'pending' | 'running' | 'done' | 'dead' | 'ignored';
  attempts: number;
  last_error: string | null;
  received_at: string;
  finished_at: string | null;
  run_ids: string[];
}

export interface AutopilotStatus {
  enabled: boolean;
  tier: 'anonymous' | 'free' | 'skip';
  instance_id: string;
  quota: Record<string, unknown> | null;
  service_url: string | null;
  enrolled: boolean;
}

export type MissionStatus = 'draft' | 'scheduled' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';

export interface MissionSummary {
  mission_id: string;
  blueprint_id: string;
  status: MissionStatus;
  project_id: string;
  created_at: string;
  updated_at: string;
  title: string;
  schedule: string | null;
  next_run_at: string | null;
}

export interface HealingItem {
  id: string;
  action: string;
  reason: string;
  severity: 'info' | 'warning' | 'critical';
  detail: string;
  apply: { action: string; params: Record<string, unknown>; safe: boolean } | null;
}

export interface MissionDetail extends MissionSummary {
  goal: string | null;
  slots: Record<string, unknown>;
  missing_slots: string[];
  preview: string;
  budget_usd: number | null;
  approved_at: string | null;
  consecutive_failures: number;
  runs: {
    execution_id: string;
    attempt: number;
    trigger: string;
    status: string;
    started_at: string;
    finished_at: string | null;
    duration_ms: number | null;
    cost_usd: number;
    error: { code: string; message: string } | null;
  }[];
  steps: {
    step_index: number;
    node_id: string;
    run_id: string | null;
    status: string;
    output_preview: string;
    telemetry: {
      cost_usd: number;
      input_tokens: number;
      output_tokens: number;
      model_used: string;
      latency_ms: number;
    };
    error: { code: string; message: string } | null;
  }[];
  healing: HealingItem[];
}

export interface Candidate {
  blueprint_json: string;
  score: number;
  blueprint_id?: string | null;
  title?: string;
}

export type RoutingResult =
  | {
      kind: 'auto_routed';
      mission_id: string;
      blueprint_id: string;
      preview: string;
      score: number;
      missing_slots: string[];
    }
  | { kind: 'picker_needed'; candidates: Candidate[] }
  | { kind: 'synthesis_needed'; goal: string; reason: string };

export interface Budget {
  account: string;
  kind: 'agent_daily' | 'token';
  subject: string;
  limit_usd: number;
  spent_usd: number;
  reserved_usd: number;
  remaining_usd: number;
  runs_holding: number;
}
