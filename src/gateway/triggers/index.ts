export { createTriggers, type Triggers, type TriggersOptions } from './create-triggers.js';
export {
  createInboxStore,
  type InboxItem,
  type InboxSourceKind,
  type InboxStatus,
  type InboxStore,
  type InboxWorker,
  type ListInboxFilter,
  type NewInboxItem,
} from './inbox/index.js';
export { triggersRoutes, type TriggersRoutesOptions } from './triggers.routes.js';
export { webhooksRoutes, type WebhookIntake, type WebhooksRoutesOptions } from './webhooks/index.js';
export type {
  DeliveryView,
  InboxView,
  ListDeliveriesQuery,
  TriggerOperations,
  TriggerView,
} from './trigger-operations.service.js';
export type { TriggerIntake, TriggerIntakeStats } from './trigger-intake.service.js';
export {
  PermanentSourceError,
  type TriggerSource,
  type TriggerSourceState,
  type TriggerSourceStatus,
} from './trigger-source.js';
export type { Sleep } from './source-backoff.js';
export type { Deliver, ListenerConnection, OpenConnection } from './listeners/listener-connection.js';
export { createSourceLeaseStore, type SourceLease, type SourceLeaseStore } from './listeners/source-lease.store.js';
export type { TriggerKind, TriggerRunEnd, TriggerRuns } from './trigger.types.js';
export type { HandlerRunResult } from './inbox/index.js';
