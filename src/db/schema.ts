import type { Generated } from 'kysely';

/**
 * Every table, declared once. Timestamps are ISO 8601 UTC strings and booleans are 0/1 integers on
 * both engines, so the same queries (and string comparisons of times) run on SQLite and PostgreSQL.
 */
export interface Database {
  agents: AgentsTable;
  access_tokens: AccessTokensTable;
  kv: KvTable;
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
