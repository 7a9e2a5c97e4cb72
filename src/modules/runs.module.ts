import type { AgentRegistry, RunService, SessionService } from '../agents/index.js';
import { createAnalyticsWriteStore, createUsageRecorder, meterUsage } from '../analytics/index.js';
import { tokensRoutes, type TokenService } from '../auth/index.js';
import { createNodeAgents } from '../autopilot/index.js';
import { createBusErrorLog, createRunEventBus } from '../bus/index.js';
import { registerLifecycle, type Metrics, type RateLimits } from '../http/index.js';
import { isoNow } from '../ids.js';
import { createToolRegistry, toolsRoutes, type ToolRegistry } from '../tools/index.js';
import type { AppContext } from './app-context.js';

/**
 * What the run service is built over: the tool registry, the run event bus and the usage records. Registered
 * before the runs, each closes after they drained (the drained runs' last usage records are written first).
 */
export async function registerRunDependencies(
  { server, config, database, version }: AppContext,
  deps: { agents: AgentRegistry; metrics: Metrics; rateLimits: RateLimits },
) {
  const tools = await createToolRegistry({ config: config.tools, logger: server.log, version, a2a: config.a2a });
  registerLifecycle(server, { close: () => tools.close() });
  const bus = createRunEventBus({ redisUrl: config.server.redis_url, onError: createBusErrorLog(server.log) });
  registerLifecycle(server, { close: () => bus.close() });
  // Autopilot nodes run as transient agents: the run service resolves agents through this registry.
  const nodeAgents = createNodeAgents(deps.agents);
  const recorder = createUsageRecorder({ store: createAnalyticsWriteStore(database.db, database.writes) });
  registerLifecycle(server, { close: () => recorder.close() });
  const usage = meterUsage(
    recorder,
    deps.metrics,
    (provider) => config.providers[provider]?.type ?? provider,
    (agentName, tokens) => deps.rateLimits.countTokens(agentName, tokens),
  );
  return { tools, bus, nodeAgents, usage };
}

/**
 * The runs' start and stop: at start, runs a stopped process left are recovered (with other replicas, only those
 * whose lease lapsed); at stop, runs still going (e.g. non-streamed ones whose client left) finish, or are
 * cancelled at `server.shutdown_timeout_ms`, before anything registered earlier closes. With the token and tool
 * routes, which read the runs.
 */
export async function registerRuns(
  { server, config }: AppContext,
  runtime: { runs: RunService; sessions: SessionService },
  deps: { agents: AgentRegistry; tokens: TokenService; tools: ToolRegistry; metrics: Metrics },
): Promise<void> {
  const { runs, sessions } = runtime;
  registerLifecycle(server, {
    async start() {
      const interrupted = await runs.recoverInterrupted();
      if (interrupted > 0)
        server.log.warn({ runs: interrupted }, 'marked runs left unfinished by a stopped server as interrupted');
      // Runs resumed at start-up are logged by the run service, each with its id.
    },
    stop: () => runs.drain(config.server.shutdown_timeout_ms),
  });
  // Sessions count as active within the admin session window, as GET /api/v1/admin/status counts them.
  const activeSince = () => isoNow(new Date(Date.now() - config.admin.session_window_minutes * 60_000));
  deps.metrics.track({
    activeRuns: () => runs.active().length,
    activeSessions: () => sessions.countActive(activeSince()),
  });
  await server.register(tokensRoutes, {
    tokens: deps.tokens,
    budgetOf: (tokenId, maxCostUsd, agentName) => runs.tokenBudget(tokenId, maxCostUsd, agentName),
  });
  await server.register(toolsRoutes, { registry: deps.tools, agentTools: (name) => deps.agents.find(name)?.tools });
}
