export { webhooksRoutes, type WebhooksRoutesOptions } from './webhooks.routes.js';
export { createWebhookIntake, type IntakeResult, type WebhookIntake, type WebhookIntakeOptions, type WebhookIntakeStats } from './webhook-intake.service.js';
export { createWebhookWorker, type WebhookWorker, type WebhookWorkerOptions } from './webhook-worker.js';
export {
  createWebhookDeliveryStore,
  type DeliveryOutcome,
  type ListDeliveriesFilter,
  type NewWebhookDelivery,
  type WebhookDelivery,
  type WebhookDeliveryStore,
} from './webhook-delivery.store.js';
export type { WebhookDeliveriesTable, WebhookDeliveryStatus, WebhookTables } from './webhook.tables.js';
export type { StartRun, WebhookLogger, WebhookRunRequest, WebhookRunResult } from './webhook.types.js';
