import { z } from 'zod';
import { pageQuery } from '../page-query.js';
import { SHARED_SESSIONS_SCOPE } from './owner-of.js';
import { GRANTING_SCOPES } from './principal.js';

/**
 * The scopes a token may be created with: those that grant a route, shared_sessions, and `dream`, which the
 * spec shows in use (stored, grants nothing). Any other string is a 400: a typo must not make a token that
 * silently reaches nothing.
 */
export const KNOWN_SCOPES = [...GRANTING_SCOPES, SHARED_SESSIONS_SCOPE, 'dream'] as const;

const scope = z.enum(KNOWN_SCOPES, {
  error: (issue) => `unknown scope ${JSON.stringify(issue.input)}: known scopes are ${KNOWN_SCOPES.join(', ')}`,
});

const perMinuteLimit = z.strictObject({
  requests_per_minute: z.number().int().min(1).optional(),
  tokens_per_minute: z.number().int().min(1).optional(),
});

export const createTokenBody = z.strictObject({
  agent_name: z.string().min(1).describe('The agent this token may reach'),
  scopes: z
    .array(scope)
    .min(1)
    .max(16)
    .optional()
    .describe(
      'Defaults to ["chat"]; chat, a2a, tools and mcp grant access, shared_sessions shares sessions, dream is stored only; others are refused',
    ),
  expires_in_seconds: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('Lifetime in seconds; default 86400, at most auth.tokens.max_expires_in_seconds'),
  single_use: z.boolean().optional().describe('When true the token is accepted exactly once'),
  max_cost_usd: z.number().positive().optional().describe('Spending limit across all runs made with this token'),
  rate_limit: perMinuteLimit.optional().describe('Requests and model tokens per minute for this token; 429 beyond'),
  a2a: z
    .strictObject({
      skills: z
        .array(z.string().min(1).max(128))
        .max(64)
        .optional()
        .describe("Skill ids of the agent's card this token may use; absent: all"),
      methods: z
        .array(z.string().min(1).max(64))
        .max(32)
        .optional()
        .describe(
          'A2A methods this token may call, by their 1.0 or v0.3 name (SendMessage or message/send); absent: all',
        ),
    })
    .optional()
    .describe('Restricts what the token may do over A2A (with the a2a scope)'),
});

const a2aRestrictions = z.object({ skills: z.array(z.string()).nullable(), methods: z.array(z.string()).nullable() });

export const tokenView = z.object({
  token_id: z.string(),
  agent_name: z.string(),
  scopes: z.array(z.string()),
  single_use: z.boolean(),
  status: z.enum(['active', 'revoked', 'used', 'expired']),
  created_at: z.string(),
  expires_at: z.string(),
  last_used_at: z.string().nullable(),
  use_count: z.number().int(),
  token_suffix: z.string(),
  max_cost_usd: z.number().nullable(),
  rate_limit: perMinuteLimit.nullable(),
  a2a: a2aRestrictions.nullable().describe('Allowed skills and A2A methods (1.0 names); null: no restriction'),
});

export const createdToken = tokenView.extend({
  token: z.string().describe('The plaintext (sat-…), shown only in this response'),
});

export const tokenIdParams = z.object({ id: z.string().min(1) });
export const listTokensQuery = z.strictObject({ agent_name: z.string().min(1).optional(), ...pageQuery });

const usd = z.number();

/** GET /gateway/token: the presented access token, what it may still spend, and its limits. */
export const ownTokenView = z.object({
  token_id: z.string(),
  agent_name: z.string(),
  scopes: z.array(z.string()),
  expires_at: z.string(),
  rate_limit: perMinuteLimit.nullable(),
  budget: z
    .object({
      max_cost_usd: usd.nullable().describe('The cap set at creation; null: no cap'),
      spent_usd: usd.describe('Spent by finished model calls of runs made with this token'),
      held_usd: usd.describe('Reserved by its runs in flight, not yet charged'),
      remaining_usd: usd.nullable().describe('max_cost_usd - spent - held; null without a cap'),
    })
    .describe('This token, counted across every replica'),
  agent_daily_budget: z
    .object({ limit_usd: usd, spent_usd: usd, held_usd: usd, remaining_usd: usd })
    .nullable()
    .describe("The agent's daily_budget_usd today (UTC), shared with every caller of the agent; null: none"),
});
