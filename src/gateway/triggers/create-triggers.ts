import type { ListenerConfig, ListenersConfig, PollersConfig, TriggerSettings } from '../../config/index.js';
import type { InboxWorker } from './inbox/index.js';
import { createListener } from './listeners/create-listener.js';
import { defaultReplicaId } from './listeners/default-replica-id.js';
import type { OpenConnection } from './listeners/listener-connection.js';
import { openConnectionFor } from './listeners/open-connection-for.js';
import type { SourceLeaseStore } from './listeners/source-lease.store.js';
import { createPoller } from './pollers/create-poller.js';
import type { Sleep } from './source-backoff.js';
import type { TriggerEventStore } from './trigger-event.store.js';
import { collectTriggerHandlers } from './trigger-handlers.js';
import { createTriggerIntake, type TriggerIntake } from './trigger-intake.service.js';
import { createTriggerOperations, type TriggerOperations } from './trigger-operations.service.js';
import type { TriggerSource } from './trigger-source.js';
import { createTriggerWorker } from './trigger-worker.js';
import type { StartRun, TriggerLogger } from './trigger.types.js';
import type { WebhookInboxView } from './webhook-inbox-view.js';

export interface TriggersOptions {
  store: TriggerEventStore;
  startRun: StartRun;
  /** The `pollers`, `listeners` and `trigger_settings` sections (the whole Config fits). */
  config: { pollers: PollersConfig; listeners: ListenersConfig; trigger_settings: TriggerSettings };
  logger: TriggerLogger;
  /** False when the gateway is off: nothing polls or listens (sources are listed as stopped), but stored events stay visible. */
  enabled?: boolean;
  /** The webhook inbox, for the operators' view (absent when the webhook router is off). */
  webhooks?: WebhookInboxView;
  reclaimAllOnStart?: boolean;
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
  worker: InboxWorker;
  operations: TriggerOperations;
  /** Starts the inbox worker (recovering events a crash left behind), then every poller and listener. */
  start(): Promise<void>;
  /** Stops the sources first, so nothing new arrives, then lets the worker finish what it holds. */
  stop(): Promise<void>;
}

/** Builds the pollers, the listeners and the inbox they share from the config. */
export function createTriggers(options: TriggersOptions): Triggers {
  const { store, config, logger } = options;
  const handlers = collectTriggerHandlers(config);
  const worker = createTriggerWorker({ store, startRun: options.startRun, handlers, settings: config.trigger_settings, logger, now: options.now, workerId: options.workerId, reclaimAllOnStart: options.reclaimAllOnStart });
  const intake = createTriggerIntake({ store, handlers, logger, now: options.now, onAccepted: () => worker.wake() });
  const common = { intake, settings: config.trigger_settings, logger, now: options.now, sleep: options.sleep };
  const replicaId = options.replicaId ?? defaultReplicaId();
  const openFor = options.openConnection ?? ((listener: ListenerConfig) => openConnectionFor(listener, { leases: options.sourceLeases }));
  const sources: TriggerSource[] = [
    ...config.pollers.map((poller) => createPoller({ ...common, poller, fetch: options.fetch })),
    ...config.listeners.map((listener) => createListener({ ...common, listener, replicaId, open: openFor(listener) })),
  ];
  const enabled = options.enabled ?? true;
  const operations = createTriggerOperations({ sources, intake, store, worker, webhooks: options.webhooks, now: options.now });

  return {
    sources,
    intake,
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
