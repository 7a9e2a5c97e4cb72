import type { RunService } from '../agents/index.js';
import {
  createInboxStore,
  createSourceLeaseStore,
  createTriggers,
  triggersRoutes,
  webhooksRoutes,
  type Triggers,
} from '../gateway/triggers/index.js';
import { registerLifecycle, type Metrics } from '../http/index.js';
import type { AppContext } from './app-context.js';

/**
 * The trigger inbox, its worker, the pollers and listeners, the webhook routes (when on) and the operators'
 * trigger routes. Sources and the worker start once the server is ready and stop when it closes; the inbox
 * gauges read its store.
 */
export async function registerTriggers(
  { server, config, database, topology, backgroundLog }: AppContext,
  deps: { runs: RunService; metrics: Metrics },
): Promise<Triggers> {
  const triggers = createTriggers({
    store: createInboxStore(database.db),
    runs: deps.runs,
    config,
    logger: backgroundLog,
    enabled: config.gateway.enabled,
    webhooksEnabled: config.gateway.enabled && config.gateway.webhooks,
    maxJsonDepth: config.server.max_json_depth,
    // Alone on its database, this process is the only one that can hold claims: every item a crash left running
    // is taken back at start. With replicas, an item is taken back once its claim's lease lapsed.
    reclaimAllOnStart: !topology.sharedDatabase,
    // An external SSE stream is read by one replica at a time, the one holding its lease.
    sourceLeases: createSourceLeaseStore(database.db),
    replicaId: config.server.replica_id,
  });
  registerLifecycle(server, { start: () => triggers.start(), stop: () => triggers.stop() });
  deps.metrics.track({ inboxStats: () => triggers.operations.inboxStats() });
  if (triggers.webhookIntake)
    await server.register(webhooksRoutes, {
      intake: triggers.webhookIntake,
      settings: config.webhook_settings,
      webhooks: config.webhooks,
      redisUrl: config.server.redis_url,
      onRateLimited: () =>
        deps.metrics.observeRateLimitRejection({
          route: `${config.webhook_settings.path_prefix}/:name`,
          subject: 'webhook',
          limit: 'requests',
        }),
    });
  await server.register(triggersRoutes, { operations: triggers.operations });
  return triggers;
}
