import { z } from 'zod';

export const modelObject = z.object({
  id: z.string().describe('The agent name'),
  object: z.literal('model'),
  created: z.number().int().describe('When the agent was first registered, in Unix seconds'),
  owned_by: z.literal('agent-gateway'),
});

export const modelList = z.object({ object: z.literal('list'), data: z.array(modelObject) });

export const modelParams = z.object({ model: z.string().min(1) });

export type ModelObject = z.infer<typeof modelObject>;
