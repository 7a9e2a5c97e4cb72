import { join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * Deliveries in the gateway's SQLite file, read through a second connection: a row seen here was committed
 * by the gateway before it answered 202, which is what "durably stored" means for the inbox.
 */
export function countStoredDeliveries(dataDir: string, webhook: string): number {
  const db = new Database(join(dataDir, 'agent-gateway.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const row = db
      .prepare("select count(*) as count from inbox_items where source_kind = 'webhook' and source_name = ?")
      .get(webhook) as { count: number };
    return row.count;
  } finally {
    db.close();
  }
}

/** A webhook's deliveries by outcome, with the server's own timestamps (ISO, so they order as text). */
export interface DeliveryProgress {
  stored: number;
  done: number;
  failed: number;
  /** received_at of the first and the last stored delivery: the last one was stored just before its 202. */
  firstReceivedAt: string | null;
  lastReceivedAt: string | null;
  /** finished_at of the last delivery whose handler run ended. */
  lastFinishedAt: string | null;
}

/** Reads how far the inbox worker has got with a webhook's deliveries, through a second connection. */
export function readDeliveryProgress(dataDir: string, webhook: string): DeliveryProgress {
  const db = new Database(join(dataDir, 'agent-gateway.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(
        `select count(*) as stored,
           coalesce(sum(case when status = 'done' then 1 else 0 end), 0) as done,
           coalesce(sum(case when status = 'dead' then 1 else 0 end), 0) as failed,
           min(received_at) as firstReceivedAt, max(received_at) as lastReceivedAt,
           max(case when status = 'done' then finished_at end) as lastFinishedAt
         from inbox_items where source_kind = 'webhook' and source_name = ?`,
      )
      .get(webhook) as DeliveryProgress;
  } finally {
    db.close();
  }
}
