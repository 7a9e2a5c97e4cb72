import { adminRoutes, createAdminService } from '../admin/index.js';
import type { AgentRegistry, RunService, SessionService } from '../agents/index.js';
import { analyticsRoutes, createAnalyticsQueryStore, createAnalyticsService } from '../analytics/index.js';
import type { RunEventBus } from '../bus/index.js';
import type { AppContext } from './app-context.js';

/** The operators' API: agents, runs, sessions and status (with the runs change feed), and the analytics reports. */
export async function registerAdmin(
  { server, config, database }: AppContext,
  deps: { agents: AgentRegistry; runs: RunService; sessions: SessionService; bus: RunEventBus },
): Promise<void> {
  const health = async () => {
    const [databaseUp, busUp] = await Promise.all([database.ping(), deps.bus.ping()]);
    return [
      ...(databaseUp ? [] : [`database (${database.engine}) unreachable`]),
      ...(busUp ? [] : [`run event bus (${config.server.redis_url ? 'redis' : 'in-process'}) unreachable`]),
    ];
  };
  await server.register(adminRoutes, {
    admin: createAdminService({
      agents: deps.agents,
      runs: deps.runs,
      sessions: deps.sessions,
      config: config.admin,
      health,
      onError: (error) => server.log.warn({ err: error }, 'runs change feed: could not read the store'),
    }),
  });
  await server.register(analyticsRoutes, {
    analytics: createAnalyticsService({ store: createAnalyticsQueryStore(database.db) }),
  });
}
