import { z } from 'zod';
import { a2aSchema, checkA2aDefaultAgent, checkDelegateTool } from './schemas/a2a.schema.js';
import { adminSchema } from './schemas/admin.schema.js';
import { agentsSchema } from './schemas/agents.schema.js';
import { authSchema } from './schemas/auth.schema.js';
import { autopilotSchema, checkAutopilotModel } from './schemas/autopilot.schema.js';
import { gatewaySchema } from './schemas/gateway.schema.js';
import { guardrailsSchema } from './schemas/guardrails.schema.js';
import { checkTriggerAgents, listenersSchema } from './schemas/listeners.schema.js';
import { pollersSchema } from './schemas/pollers.schema.js';
import { pricingSchema } from './schemas/pricing.schema.js';
import { providersSchema } from './schemas/providers.schema.js';
import { runsSchema } from './schemas/runs.schema.js';
import { serverSchema } from './schemas/server.schema.js';
import { sessionsSchema } from './schemas/sessions.schema.js';
import { telemetrySchema } from './schemas/telemetry.schema.js';
import { BUILTIN_TOOL_NAMES, toolsSchema } from './schemas/tools.schema.js';
import { triggerSettingsSchema } from './schemas/trigger-settings.schema.js';
import { uiSchema } from './schemas/ui.schema.js';
import { checkWebhookAgents, webhookSettingsSchema, webhooksSchema } from './schemas/webhooks.schema.js';

/**
 * The whole configuration file. Each section has its own schema file; a new feature adds its section
 * here, and cross-section checks (agents, providers, tools named elsewhere) run below.
 */
export const configSchema = z
  .strictObject({
    server: serverSchema.default(serverSchema.parse({})),
    auth: authSchema.default(authSchema.parse({})),
    gateway: gatewaySchema,
    providers: providersSchema,
    pricing: pricingSchema,
    agents: agentsSchema,
    tools: toolsSchema,
    admin: adminSchema,
    runs: runsSchema,
    sessions: sessionsSchema,
    guardrails: guardrailsSchema,
    webhooks: webhooksSchema,
    webhook_settings: webhookSettingsSchema,
    pollers: pollersSchema,
    listeners: listenersSchema,
    trigger_settings: triggerSettingsSchema,
    autopilot: autopilotSchema,
    a2a: a2aSchema,
    telemetry: telemetrySchema,
    ui: uiSchema,
  })
  .superRefine((config, ctx) => {
    checkWebhookAgents(config, ctx);
    checkTriggerAgents(config, ctx);
    checkAutopilotModel(config, ctx);
    checkDelegateTool(config, ctx);
    checkA2aDefaultAgent(config, ctx);
    const defaultAgent = config.gateway.agui_default_agent;
    if (defaultAgent !== undefined && !config.agents.some((agent) => agent.name === defaultAgent)) {
      ctx.addIssue({
        code: 'custom',
        path: ['gateway', 'agui_default_agent'],
        message: `unknown agent "${defaultAgent}"`,
      });
    }
    const seen = new Set<string>();
    const toolNames = knownToolNames(config.tools);
    const mcpPrefixes = config.tools.flatMap((tool) => ('mcp' in tool ? [tool.prefix] : []));
    config.agents.forEach((agent, index) => {
      if (seen.has(agent.name))
        ctx.addIssue({
          code: 'custom',
          path: ['agents', index, 'name'],
          message: `duplicate agent name "${agent.name}"`,
        });
      seen.add(agent.name);
      const models = [agent.model, ...(agent.fallback_models ?? [])];
      models.forEach((model, modelIndex) => {
        const provider = model.slice(0, model.indexOf('/'));
        if (!(provider in config.providers)) {
          ctx.addIssue({
            code: 'custom',
            // A list's entry is named by its index; a single model by the key.
            path: ['agents', index, 'model', ...(agent.fallback_models ? [modelIndex] : [])],
            message: `unknown provider "${provider}" (configured: ${Object.keys(config.providers).join(', ') || 'none'})`,
          });
        }
      });
      agent.tools.forEach((tool, toolIndex) => {
        const fromMcp = mcpPrefixes.some((prefix) => tool === `${prefix}__*` || tool.startsWith(`${prefix}__`));
        if (!toolNames.has(tool) && !fromMcp) {
          ctx.addIssue({
            code: 'custom',
            path: ['agents', index, 'tools', toolIndex],
            message: `unknown tool "${tool}"`,
          });
        }
      });
    });
  });

function knownToolNames(tools: z.infer<typeof toolsSchema>): Set<string> {
  const names = new Set<string>(BUILTIN_TOOL_NAMES);
  for (const tool of tools) if ('name' in tool) names.add(tool.name);
  return names;
}

export type Config = z.infer<typeof configSchema>;
