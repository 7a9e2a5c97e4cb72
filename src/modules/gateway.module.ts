import type { AgentRegistry, RunService, SessionService } from '../agents/index.js';
import { a2aRoutes, createA2aPushStore, createA2aTaskStore, type CardTool } from '../gateway/a2a/index.js';
import { aguiRoutes } from '../gateway/agui/index.js';
import { mcpRoutes } from '../gateway/mcp/index.js';
import { createResponsesService, createResponseStore, openaiRoutes } from '../gateway/openai/index.js';
import type { AuthHooks, RateLimits } from '../http/index.js';
import { createOutboundGuard, type ToolRegistry } from '../tools/index.js';
import { publicUrlOf, type AppContext } from './app-context.js';

interface GatewayDeps {
  agents: AgentRegistry;
  runs: RunService;
  sessions: SessionService;
  tools: ToolRegistry;
  authHooks: AuthHooks;
  rateLimits: RateLimits;
}

/** The protocol adapters over the run service. A disabled one's routes are not mounted, so they answer 404. */
export async function registerGateways(ctx: AppContext, deps: GatewayDeps): Promise<void> {
  const { server, config } = ctx;
  const { agents, runs } = deps;
  const stalledTimeoutMs = config.server.stalled_client_timeout_seconds * 1000;
  if (!config.gateway.enabled) return;
  if (config.gateway.openai_compat) {
    const store = createResponseStore(ctx.database.db);
    const responses = createResponsesService({ agents, runs, sessions: deps.sessions, store });
    await server.register(openaiRoutes, { agents, runs, responses, stalledTimeoutMs });
  }
  if (config.gateway.agui)
    await server.register(aguiRoutes, {
      agents,
      runs,
      stalledTimeoutMs,
      defaultAgent: config.gateway.agui_default_agent ?? config.agents[0]?.name,
      // A socket's runs are admitted as requests are: the credential again, a token's use, then the limits.
      admitRun: async (request) => {
        await deps.authHooks.reauthorize(request);
        return deps.rateLimits.admitRun(request);
      },
      idleTimeoutMs: config.server.ws_idle_timeout_seconds * 1000,
      maxConnectionsPerPrincipal: config.server.ws_max_connections_per_principal,
    });
  if (config.gateway.a2a) await registerA2a(ctx, deps, stalledTimeoutMs);
  if (config.gateway.mcp) await server.register(mcpRoutes, { agents, runs, version: ctx.version });
}

/** A2A: agent cards, tasks, and the push notification outbox, whose worker starts and stops with the routes. */
async function registerA2a(
  { server, config, database, version, backgroundLog }: AppContext,
  deps: GatewayDeps,
  stalledTimeoutMs: number,
) {
  await server.register(a2aRoutes, {
    agents: deps.agents,
    runs: deps.runs,
    tasks: createA2aTaskStore(database.db),
    publicUrl: { publicUrl: publicUrlOf(config), trustProxy: config.server.trust_proxy },
    version,
    defaultAgent: config.a2a.default_agent,
    toolsOf: cardToolsOf(deps.tools),
    stalledTimeoutMs,
    push: {
      store: createA2aPushStore(database.db),
      guard: createOutboundGuard(config.a2a.push_notifications.allow_private, 'a2a.push_notifications.allow_private'),
      settings: config.a2a.push_notifications,
    },
    backgroundLog,
  });
}

/** What an agent card may show of an agent's tools: names and descriptions, never their configuration. */
function cardToolsOf(tools: ToolRegistry): (names: string[]) => CardTool[] {
  return (names) => tools.forAgent(names).map((tool) => ({ name: tool.name }));
}
