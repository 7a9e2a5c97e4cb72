import type { Database } from '../../../db/index.js';

export type { WebhookDeliveriesTable, WebhookDeliveryStatus } from '../../../db/index.js';

/** The part of the database the webhook store needs. */
export type WebhookTables = Pick<Database, 'webhook_deliveries'>;
