import type { FastifyPluginAsync } from 'fastify';
import type { AgentRegistry, RunService } from '../../agents/index.js';
import type { A2aTaskStore } from './a2a-task.store.js';
import type { CardTool } from './cards/agent-card.js';
import { createAgentHandlers } from './agent-handlers.js';
import { cardsRoutes } from './cards/cards.routes.js';
import type { PublicUrlSettings } from './cards/resolve-public-base-url.js';
import { jsonRpcRoutes } from './json-rpc/json-rpc.routes.js';
import type { A2aPushConfig } from '../../config/index.js';
import type { A2aPushStore } from './push/a2a-push.store.js';
import { createPushDeliveryWorker } from './push/push-delivery-worker.js';
import type { PushEndpointGuard } from './push/push-endpoint-guard.js';
import type { Logger } from '../../logger.js';

export interface A2aRoutesOptions {
  agents: AgentRegistry;
  runs: RunService;
  /** Where A2A tasks are kept, so their state survives a restart. */
  tasks: A2aTaskStore;
  /** server.public_url and server.trust_proxy: where the cards say the agents are. */
  publicUrl: PublicUrlSettings;
  /** a2a.default_agent: the agent whose standard card the host root's `/.well-known/agent-card.json` serves. */
  defaultAgent?: string;
  /** The gateway's version, published in the standard cards. */
  version: string;
  /** The tools an agent's `tools` list expands to (names and descriptions only), for its card's skills. */
  toolsOf: (names: string[]) => CardTool[];
  /** server.stalled_client_timeout_seconds: a streaming client that reads nothing for this long is disconnected. */
  stalledTimeoutMs?: number;
  /** Push notifications: configs and outbox, the SSRF rules for their URLs, and how deliveries are retried. */
  push: { store: A2aPushStore; guard: PushEndpointGuard; settings: A2aPushConfig };
  /** The push worker's log (app.ts: outages said once per 30 s); the app's own by default. */
  backgroundLog?: Logger;
}

/** A2A: public agent cards, and each published agent's JSON-RPC endpoint served by the official SDK. */
export const a2aRoutes: FastifyPluginAsync<A2aRoutesOptions> = async (app, options) => {
  const worker = createPushDeliveryWorker({ ...options.push, logger: options.backgroundLog ?? app.log });
  const handlers = createAgentHandlers({
    logger: app.log,
    push: { store: options.push.store, guard: options.push.guard, wake: () => worker.wake() },
    agents: options.agents,
    runs: options.runs,
    store: options.tasks,
    version: options.version,
    toolsOf: options.toolsOf,
  });
  await app.register(cardsRoutes, {
    agents: options.agents,
    publicUrl: options.publicUrl,
    version: options.version,
    toolsOf: options.toolsOf,
    defaultAgent: options.defaultAgent,
  });
  await app.register(jsonRpcRoutes, {
    handlers,
    publicUrl: options.publicUrl,
    stalledTimeoutMs: options.stalledTimeoutMs,
  });
  // Runs on server.close(), before the app closes the database: tasks finish writing first.
  app.addHook('onReady', () => worker.start());
  app.addHook('onClose', async () => {
    await handlers.close();
    await worker.stop();
  });
};
