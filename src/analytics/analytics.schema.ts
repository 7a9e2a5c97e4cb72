import { z } from 'zod';
import { timestampQuery } from '../page-query.js';

const timestamp = timestampQuery;

/** Every analytics route takes the same filter; the window is [since, until). */
export const analyticsQuery = z
  .strictObject({
    agent_name: z
      .string()
      .min(1)
      .optional()
      .describe('Only this agent’s records (a mission step’s model calls are counted under `@autopilot`)'),
    mission_id: z
      .string()
      .min(1)
      .optional()
      .describe('Only the records (model calls, guardrail hits) of this mission’s steps'),
    mission_step: z
      .string()
      .min(1)
      .optional()
      .describe('Only the records of this mission step (blueprint node id); use with mission_id'),
    end_user: z
      .string()
      .min(1)
      .optional()
      .describe('Only the records of runs whose caller named this end user (Chat Completions `user`)'),
    since: timestamp
      .optional()
      .describe(
        'Records created at or after this time: an ISO 8601 date (midnight UTC) or date-time with Z or an offset',
      ),
    until: timestamp.optional().describe('Records created before this time (exclusive), in the same format as since'),
  })
  .refine((query) => query.since === undefined || query.until === undefined || query.since <= query.until, {
    message: 'must not be earlier than since',
    path: ['until'],
  });

const usd = z.number().describe('US dollars, to 1e-9');
const tokens = z.number().int();

export const costReport = z
  .object({
    total_cost_usd: usd,
    by_model: z.record(z.string(), usd).describe('Model (`<provider>/<model>`) to cost'),
    by_agent: z.record(z.string(), usd).describe('Agent name to cost'),
    record_count: z.number().int().describe('Model calls counted'),
  })
  .describe('Cost of the model calls in the window');

export const usageReport = z
  .object({
    total_tokens: tokens,
    by_model: z.record(z.string(), tokens).describe('Model (`<provider>/<model>`) to tokens'),
    by_agent: z.record(z.string(), tokens).describe('Agent name to tokens'),
    record_count: z.number().int().describe('Model calls counted'),
  })
  .describe('Tokens (input + output) of the model calls in the window');

export const riskReport = z
  .object({
    pii_events: z.number().int(),
    hallucination_flags: z.number().int(),
    content_filter_events: z.number().int(),
    total_events: z.number().int(),
  })
  .describe('Guardrail hits in the window');

export const modelComparison = z
  .object({
    model: z.string(),
    total_cost_usd: usd,
    total_tokens: tokens,
    request_count: z.number().int(),
    cost_per_1k_tokens: usd,
  })
  .describe('One model’s totals; the list is most expensive first');

export const agentAnalytics = z
  .object({
    agent_name: z.string(),
    total_cost_usd: usd,
    total_tokens: tokens,
    request_count: z.number().int(),
    models_used: z.array(z.string()),
  })
  .describe('One agent’s totals; the list is most expensive first');
