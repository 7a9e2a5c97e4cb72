import { z } from 'zod';

/** Feature flags of the spec (GATEWAY_*). A disabled feature's routes are not mounted. */
export const gatewaySchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    openai_compat: z.boolean().default(true),
    agui: z.boolean().default(true),
    webhooks: z.boolean().default(true),
    a2a: z.boolean().default(true),
    mcp: z.boolean().default(true),
    /**
     * The agent a WebSocket on /agui/ws talks to when it names none (spec 4.2: the client sends only
     * messages). Unset: the first agent of the config. An access token always talks to its own agent.
     */
    agui_default_agent: z.string().min(1).optional(),
  })
  .default({ enabled: true, openai_compat: true, agui: true, webhooks: true, a2a: true, mcp: true });

export type GatewayConfig = z.infer<typeof gatewaySchema>;
