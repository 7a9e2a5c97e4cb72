import type { InboxWorkerStats } from './inbox/index.js';

export type DeliveryStatus = 'pending' | 'processing' | 'done' | 'failed' | 'ignored';

/** The fields of a stored webhook delivery the operators' view shows. */
export interface WebhookDeliveryView {
  delivery_id: string;
  webhook: string;
  event: string;
  status: DeliveryStatus;
  attempts: number;
  last_error: string | null;
  received_at: string;
  finished_at: string | null;
  run_ids: string[];
}

/**
 * What the operators' view needs from the webhook inbox. Gateway adapters may not import each other,
 * so app.ts passes the webhook intake, store and worker, which fit these shapes.
 */
export interface WebhookInboxView {
  webhooks: readonly { name: string; verification: string }[];
  intake: { stats(): { webhook: string; received: number; duplicates: number; rejected: number; last_received_at: string | null }[] };
  worker: { stats(): InboxWorkerStats[]; wake(): void };
  store: {
    list(filter: { status?: DeliveryStatus; limit?: number; offset?: number }): Promise<WebhookDeliveryView[]>;
    get(deliveryId: string): Promise<WebhookDeliveryView | undefined>;
    retry(deliveryId: string, now: string): Promise<WebhookDeliveryView | undefined>;
    countByStatus(webhook?: string): Promise<Record<DeliveryStatus, number>>;
  };
}
