import { z } from 'zod';

/** The agent card of the interface spec (section 2): what `/.well-known/agent-cards.json` lists per agent. */
export const specAgentCard = z.object({
  name: z.string(),
  description: z.string(),
  capabilities: z.array(z.string()),
  endpoint: z
    .string()
    .describe(
      "The agent's A2A endpoint, ending with '/' (what an A2A SDK starts from: its standard card is at <endpoint>.well-known/agent-card.json); JSON-RPC answers there with or without the '/'",
    ),
  model: z.string(),
});

export type SpecAgentCard = z.infer<typeof specAgentCard>;

export const specAgentCardList = z.array(specAgentCard);

export const agentNameParams = z.object({ name: z.string().min(1) });

export const a2aVersionHeaders = z.object({
  'a2a-version': z
    .string()
    .optional()
    .describe('A2A protocol version of the caller: absent or 0.3 gets the v0.3 (hybrid) card, 1.0 the A2A 1.0 card'),
});
