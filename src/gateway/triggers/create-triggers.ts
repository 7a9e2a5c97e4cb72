import type {
  ListenerConfig,
  ListenersConfig,
  PollersConfig,
  TriggerSettings,
  WebhookSettings,
  WebhooksConfig,
} from '../../config/index.js';
import { handleInboxItem } from './handle-inbox-item.js';
import { createInboxWorker, type InboxStore, type InboxWorker } from './inbox/index.js';
import { createListener } from './listeners/create-listener.js';
import { defaultReplicaId } from './listeners/default-replica-id.js';
import type { OpenConnection } from './listeners/listener-connection.js';
import { openConnectionFor } from './listeners/open-connection-for.js';
import type { SourceLeaseStore } from './listeners/source-lease.store.js';
import { createPoller } from './pollers/create-poller.js';
import type { Sleep } from './source-backoff.js';
import { collectTriggerHandlers } from './trigger-handlers.js';
import { createTriggerIntake, type TriggerIntake } from './trigger-intake.service.js';
import { createTriggerOperations, type TriggerOperations } from './trigger-operations.service.js';
import type { TriggerSource } from './trigger-source.js';
import type { TriggerRuns } from './trigger.types.js';
import { createWebhookIntake, type WebhookIntake } from './webhooks/index.js';
import type { Logger } from '../../logger.js';

export interface TriggersOptions {
  store: InboxStore;
  /** The run service: each handler of an item is one run, which records the item. */
  runs: TriggerRuns;
  /** The trigger sections of the config (the whole Config fits). */
  config: {
    webhooks: WebhooksConfig;
    webhook_settings: WebhookSettings;
    pollers: PollersConfig;
    listeners: ListenersConfig;
    trigger_settings: TriggerSettings;
  };
  logger: Logger;
  /** False when the gateway is off: nothing polls or listens (sources are listed as stopped), but stored events stay visible. */
  enabled?: boolean;
  /** False when the webhook router is off: no webhook intake, and webhooks are not listed. */
  webhooksEnabled?: boolean;
  reclaimAllOnStart?: boolean;
  /** Deepest JSON nesting a webhook payload may have (server.max_json_depth). */
  maxJsonDepth?: number;
  workerId?: string;
  now?: () => Date;
  sleep?: Sleep;
  fetch?: typeof fetch;
  /** The client each listener uses; the real one for its source by default. */
  openConnection?: (listener: ListenerConfig) => OpenConnection;
  /** Leases in the shared database, so an SSE source is read by one replica at a time; without, this process reads it. */
  sourceLeases?: SourceLeaseStore;
  /** This replica's id among those sharing the database and brokers; the host name by default. */
  replicaId?: string;
}

export interface Triggers {
  sources: TriggerSource[];
  intake: TriggerIntake;
  /** Undefined when the webhook router is off. */
  webhookIntake: WebhookIntake | undefined;
  worker: InboxWorker;
  operations: TriggerOperations;
  /** Starts the inbox worker (recovering items a crash left behind), then every poller and listener. */
  start(): Promise<void>;
  /** Stops the sources first, so nothing new arrives, then lets the worker finish what it holds. */
  stop(): Promise<void>;
}

/** Builds the one inbox every trigger feeds, its worker, the webhook intake, the pollers and the listeners from the config. */
export function createTriggers(options: TriggersOptions): Triggers {
  const { store, config, logger, runs } = options;
  const now = options.now ?? (() => new Date());
  const handlers = collectTriggerHandlers(config);
  const worker = createInboxWorker({
    store,
    logger,
    now,
    workerId: options.workerId,
    reclaimAllOnStart: options.reclaimAllOnStart,
    lanes: [
      { kinds: ['webhook'], settings: config.webhook_settings },
      { kinds: ['poller', 'listener'], settings: config.trigger_settings },
    ],
    handle: (item, stopping) =>
      handleInboxItem(item, {
        handlers,
        settings: item.source_kind === 'webhook' ? config.webhook_settings : config.trigger_settings,
        runs,
        now,
        stopping,
      }),
  });
  const intake = createTriggerIntake({ store, handlers, logger, now: options.now, onAccepted: () => worker.wake() });
  const webhookIntake =
    options.webhooksEnabled === false
      ? undefined
      : createWebhookIntake({
          intake,
          webhooks: config.webhooks,
          maxJsonDepth: options.maxJsonDepth,
          now: options.now,
        });
  const common = { intake, settings: config.trigger_settings, logger, now: options.now, sleep: options.sleep };
  const replicaId = options.replicaId ?? defaultReplicaId();
  const openFor =
    options.openConnection ??
    ((listener: ListenerConfig) => openConnectionFor(listener, { leases: options.sourceLeases }));
  const sources: TriggerSource[] = [
    ...config.pollers.map((poller) => createPoller({ ...common, poller, fetch: options.fetch })),
    ...config.listeners.map((listener) =>
      createListener({ ...common, listener, replicaId, maxJsonDepth: options.maxJsonDepth, open: openFor(listener) }),
    ),
  ];
  const enabled = options.enabled ?? true;
  const webhooks = webhookIntake && { configs: config.webhooks };
  const operations = createTriggerOperations({ sources, intake, store, worker, webhooks, now: options.now });

  return {
    sources,
    intake,
    webhookIntake,
    worker,
    operations,
    async start() {
      await worker.start();
      if (enabled) for (const source of sources) source.start();
    },
    async stop() {
      await Promise.all(sources.map((source) => source.stop()));
      await worker.stop();
    },
  };
}
