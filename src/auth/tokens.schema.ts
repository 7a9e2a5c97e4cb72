import { z } from 'zod';
import { pageQuery } from '../page-query.js';

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
  a2a: a2aRestrictions.nullable().describe('Allowed skills and A2A methods (1.0 names); null: no restriction'),
});

export const createdToken = tokenView.extend({
  token: z.string().describe('The plaintext (sat-…), shown only in this response'),
});

export const tokenIdParams = z.object({ id: z.string().min(1) });
export const listTokensQuery = z.strictObject({ agent_name: z.string().min(1).optional(), ...pageQuery });
