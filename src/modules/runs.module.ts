import {
  createRunService,
  createRunStore,
  createSessionService,
  createSessionStore,
  type AgentRegistry,
} from '../agents/index.js';
import { createAnalyticsWriteStore, createUsageRecorder, meterUsage } from '../analytics/index.js';
import { tokensRoutes, type TokenService } from '../auth/index.js';
import { createNodeAgents } from '../autopilot/index.js';
import { createBusErrorLog, createRunEventBus } from '../bus/index.js';
import { registerLifecycle, type Metrics, type RateLimits } from '../http/index.js';
import { isoNow } from '../ids.js';
import { createModelClient, createPricing } from '../llm/index.js';
import { createToolRegistry, toolsRoutes } from '../tools/index.js';
import { providerTypeOf, type AppContext } from './app-context.js';

interface RunsDeps {
  agents: AgentRegistry;
  tokens: TokenService;
  metrics: Metrics;
  rateLimits: RateLimits;
}

/**
 * The run service and what it is built over (the tool registry, the run event bus, the usage records, the model
 * client, sessions), with the token and tool routes, which read the runs. At start, runs a stopped process left
 * are recovered (with other replicas, only those whose lease lapsed); at stop, runs still going (e.g.
 * non-streamed ones whose client left) finish, or are cancelled at `server.shutdown_timeout_ms`, before what
 * they use closes: registered before the runs, the usage recorder (with the drained runs' last records), the bus
 * and the tools close after them.
 */
export async function registerRuns(ctx: AppContext, deps: RunsDeps) {
  const { server, config, database, topology, backgroundLog: log } = ctx;
  const tools = await createToolRegistry({
    config: config.tools,
    logger: server.log,
    version: ctx.version,
    a2a: config.a2a,
  });
  registerLifecycle(server, { close: () => tools.close() });
  const bus = createRunEventBus({ redisUrl: config.server.redis_url, onError: createBusErrorLog(server.log) });
  registerLifecycle(server, { close: () => bus.close() });
  const recorder = createUsageRecorder({ store: createAnalyticsWriteStore(database.db, database.writes) });
  registerLifecycle(server, { close: () => recorder.close() });
  // Autopilot nodes run as transient agents: the run service resolves agents through this registry.
  const nodeAgents = createNodeAgents(deps.agents);
  const models = createModelClient({ providers: config.providers, logger: log });
  const sessions = createSessionService({
    store: createSessionStore(database.db, database.writes),
    maxHistoryBytes: config.sessions.max_history_bytes,
  });
  const providerTypes = Object.fromEntries(
    Object.entries(config.providers).map(([name, provider]) => [name, provider.type]),
  );
  const onUnpriced = (model: string) =>
    log.warn(
      { model },
      `no price is known for model "${model}": its calls cost 0 and are recorded priced: false (add it under pricing: in the config)`,
    );
  const pricing = createPricing({ overrides: config.pricing, providerTypes, onUnpriced });
  const runs = createRunService({
    agents: nodeAgents.registry,
    models,
    tools,
    runStore: createRunStore(database.db, database.writes),
    sessions,
    bus,
    // With replicas (a shared database, or a shared bus) heartbeats and stored commands go through the store, so
    // a replica starting up never takes another's live runs for orphans.
    multiProcess: topology.sharedDatabase || topology.sharedBus,
    log,
    lease: topology.lease,
    maxOutputBytes: config.runs.max_output_bytes,
    resume: config.runs.resume,
    databaseOutage: () => database.outage(),
    pricing,
    usage: meterUsage(recorder, deps.metrics, providerTypeOf(config), (agentName, tokens) =>
      deps.rateLimits.countTokens(agentName, tokens),
    ),
    guardrails: config.guardrails,
    tokenLimit: async (tokenId) => (await deps.tokens.get(tokenId).catch(() => undefined))?.max_cost_usd ?? null,
    metrics: deps.metrics,
  });
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
  await server.register(toolsRoutes, { registry: tools, agentTools: (name) => deps.agents.find(name)?.tools });
  return { tools, bus, nodeAgents, models, sessions, runs };
}
