import { z } from 'zod';
import { pageQuery } from '../page-query.js';

const perMinuteLimit = z.strictObject({
  requests_per_minute: z.number().int().min(1).optional(),
  tokens_per_minute: z.number().int().min(1).optional(),
});

export const createTokenBody = z.strictObject({
  agent_name: z.string().min(1).describe('The agent this token may reach'),
  scopes: z
    .array(z.string().min(1).max(64))
    .min(1)
    .max(16)
    .optional()
    .describe('Defaults to ["chat"]; chat, a2a and tools grant access, others are stored only'),
  expires_in_seconds: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('Lifetime in seconds; default 86400, at most auth.tokens.max_expires_in_seconds'),
  single_use: z.boolean().optional().describe('When true the token is accepted exactly once'),
  max_cost_usd: z.number().positive().optional().describe('Spending limit across all runs made with this token'),
  rate_limit: perMinuteLimit.optional().describe('Requests and model tokens per minute for this token; 429 beyond'),
});

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
});

export const createdToken = tokenView.extend({
  token: z.string().describe('The plaintext (sat-…), shown only in this response'),
});

export const tokenIdParams = z.object({ id: z.string().min(1) });
export const listTokensQuery = z.strictObject({ agent_name: z.string().min(1).optional(), ...pageQuery });
