export { createDatabase, isPostgresUrl, migrateToLatest, type DatabaseEngine, type DatabaseHandle, type DatabaseOptions } from './create-database.js';
export type { Database, TriggerEventsTable, TriggerEventStatus, WebhookDeliveriesTable, WebhookDeliveryStatus } from './schema.js';
export { isUniqueViolation } from './driver-errors.js';
