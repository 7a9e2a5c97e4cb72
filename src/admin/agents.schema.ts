import { z } from 'zod';
import { pageQuery } from '../page-query.js';

export const agentStatus = z
  .enum(['idle', 'running'])
  .describe('running while the agent has a run that has not ended (in any replica)');

/** Spec "Agent summary (list item)". */
export const agentSummary = z.object({
  name: z.string(),
  model: z.string().describe('<provider>/<model id>'),
  status: agentStatus,
  total_runs: z.number().int(),
  registered_at: z.string().describe('When this deployment first served the agent'),
});

/** Spec "Agent detail", plus the summary's fields, description and capabilities. */
export const agentDetail = agentSummary.extend({
  system_prompt: z.string(),
  tools: z.array(z.string()).describe('Tool names'),
  config: z.object({
    temperature: z.number(),
    max_iterations: z.number().int(),
    max_tokens: z.number().int().nullable(),
  }),
  description: z.string(),
  capabilities: z.array(z.string()),
});

export const listAgentsQuery = z.strictObject({ ...pageQuery });

export const agentNameParams = z.object({ name: z.string().min(1) });

export type AgentSummary = z.infer<typeof agentSummary>;
export type AgentDetail = z.infer<typeof agentDetail>;
