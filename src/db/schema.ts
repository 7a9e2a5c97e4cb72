import type { Generated } from 'kysely';

/**
 * Every table, declared once. Timestamps are ISO 8601 UTC strings and booleans are 0/1 integers on
 * both engines, so the same queries (and string comparisons of times) run on SQLite and PostgreSQL.
 */
export interface Database {
  agents: AgentsTable;
  access_tokens: AccessTokensTable;
  kv: KvTable;
  runs: RunsTable;
  run_steps: RunStepsTable;
  sessions: SessionsTable;
  session_messages: SessionMessagesTable;
}

export interface AgentsTable {
  name: string;
  registered_at: string;
}

export interface AccessTokensTable {
  token_id: string;
  token_hash: string;
  token_suffix: string;
  agent_name: string;
  /** JSON array of scope strings. */
  scopes: string;
  single_use: number;
  status: 'active' | 'revoked' | 'used';
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  use_count: Generated<number>;
  max_cost_usd: number | null;
}

/** Small named values the service keeps across restarts (instance ids, generated secrets' metadata). */
export interface KvTable {
  key: string;
  value: string;
  updated_at: string;
}

/** One agent run. Written at start (status running) and once more when it ends. */
export interface RunsTable {
  run_id: string;
  agent_name: string;
  status: 'running' | 'paused' | 'completed' | 'failed' | 'cancelled' | 'interrupted';
  source: 'chat' | 'agui' | 'webhook' | 'poller' | 'listener' | 'a2a' | 'autopilot';
  session_id: string | null;
  /** `<provider>/<model id>` the run used. */
  model: string;
  started_at: string;
  finished_at: string | null;
  total_tokens: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  steps: number;
  output: string | null;
  error_code: string | null;
  error_message: string | null;
  /** The access token that started the run, for per-token spending limits. */
  token_id: string | null;
}

/** One model call or tool call of a run, written when it ends. */
export interface RunStepsTable {
  step_id: string;
  run_id: string;
  step_index: number;
  kind: 'model' | 'tool';
  /** The model (`<provider>/<model id>`) or the tool name. */
  name: string;
  status: 'completed' | 'failed';
  started_at: string;
  finished_at: string;
  latency_ms: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  /** JSON: what was sent and what came back (see agents/run.types.ts PromptLog). */
  prompt_log: string;
}

/** A conversation kept for clients that send X-Session-Id; it belongs to one agent. */
export interface SessionsTable {
  session_id: string;
  agent_name: string;
  created_at: string;
  last_active: string;
  message_count: number;
}

export interface SessionMessagesTable {
  session_id: string;
  /** 0-based position in the conversation. */
  seq: number;
  /** JSON of one chat message. */
  message: string;
  created_at: string;
}
