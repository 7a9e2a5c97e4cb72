import { z } from 'zod';
import { pageQuery } from '../page-query.js';

/** Spec "Session". */
export const sessionItem = z.object({
  session_id: z.string(),
  agent_name: z.string(),
  owner: z
    .string()
    .nullable()
    .describe(
      'Who created it: token:<token_id>, agent:<name> (tokens with shared_sessions), operator:jwt:<sub> or operator:api_key:key_<fingerprint>; null before ownership existed',
    ),
  message_count: z.number().int(),
  created_at: z.string(),
  last_active: z.string(),
});

export const listSessionsQuery = z.strictObject({ ...pageQuery });

export const sessionIdParams = z.object({ session_id: z.string().min(1) });

/** One session with its stored conversation: operators read every session. */
export const sessionDetail = sessionItem.extend({
  messages: z
    .array(z.looseObject({ role: z.string(), content: z.string() }))
    .describe('The stored turns, oldest first'),
});

/** Spec "System health", plus why it is degraded. */
export const systemStatus = z.object({
  status: z.enum(['healthy', 'degraded']),
  reasons: z.array(z.string()).describe('Why the status is degraded; empty when healthy'),
  agents: z.number().int(),
  active_runs: z.number().int().describe('Runs running or paused, in every replica'),
  active_sessions: z
    .number()
    .int()
    .describe(
      "Sessions active within admin.session_window_minutes that their caller named or continued (a one-off call's session is not one)",
    ),
  uptime_seconds: z.number().int(),
});

export type SessionItem = z.infer<typeof sessionItem>;
export type SessionDetail = z.infer<typeof sessionDetail>;
export type SystemStatus = z.infer<typeof systemStatus>;

export const budgetItem = z.object({
  account: z.string().describe('`daily:<agent>:<day>` or `token:<token_id>`'),
  kind: z.enum(['agent_daily', 'token']),
  subject: z.string().describe("The agent's name or the token's id"),
  limit_usd: z.number(),
  spent_usd: z.number().describe('What finished model calls charged, across every replica'),
  reserved_usd: z.number().describe('Reserved by runs in flight and not yet charged'),
  remaining_usd: z.number().describe('limit_usd less spent and reserved, never below 0'),
  runs_holding: z.number().int(),
});
export type BudgetItem = z.infer<typeof budgetItem>;
