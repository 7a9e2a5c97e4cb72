import type { WebhookSettings, WebhooksConfig } from '../../../config/index.js';
import { createInboxWorker, type InboxWorker } from '../inbox/index.js';
import { handleDelivery } from './handle-delivery.js';
import type { WebhookDeliveryStore } from './webhook-delivery.store.js';
import type { StartRun, WebhookLogger } from './webhook.types.js';

export interface WebhookWorkerOptions {
  store: WebhookDeliveryStore;
  startRun: StartRun;
  /** The `webhooks` and `webhook_settings` config sections (the whole Config fits). */
  config: { webhooks: WebhooksConfig; webhook_settings: WebhookSettings };
  logger: WebhookLogger;
  now?: () => Date;
  /** Identifies this worker's claims; unique per process by default. */
  workerId?: string;
  /**
   * Take back every processing delivery at start, without waiting for its lease to lapse. Only right when
   * this process is the database's sole user (embedded SQLite); replicas sharing PostgreSQL rely on leases.
   */
  reclaimAllOnStart?: boolean;
}

/** The durable inbox's consumer; `stats()` counts the runs started per webhook. */
export type WebhookWorker = InboxWorker;

/** The webhook inbox's consumer: claims due deliveries, runs their handlers, retries with backoff. */
export function createWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { store } = options;
  const settings = options.config.webhook_settings;
  const webhooks = new Map(options.config.webhooks.map((webhook) => [webhook.name, webhook]));
  const now = options.now ?? (() => new Date());
  return createInboxWorker({
    store: { ...store, renewLeases: ({ ids, ...rest }) => store.renewLeases({ deliveryIds: ids, ...rest }) },
    settings,
    label: 'webhook inbox',
    logger: options.logger,
    now,
    workerId: options.workerId,
    reclaimAllOnStart: options.reclaimAllOnStart,
    describe: (delivery) => ({ id: delivery.delivery_id, group: delivery.webhook, log: { delivery_id: delivery.delivery_id, event: delivery.event } }),
    handle: (delivery, stopping) => handleDelivery(delivery, { webhook: webhooks.get(delivery.webhook), settings, startRun: options.startRun, now, stopping }),
  });
}
