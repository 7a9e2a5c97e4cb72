import { join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * Deliveries in the gateway's SQLite file, read through a second connection: a row seen here was committed
 * by the gateway before it answered 202, which is what "durably stored" means for the inbox.
 */
export function countStoredDeliveries(dataDir: string, webhook: string): number {
  const db = new Database(join(dataDir, 'agent-gateway.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare("select count(*) as count from inbox_items where source_kind = 'webhook' and source_name = ?").get(webhook) as { count: number };
    return row.count;
  } finally {
    db.close();
  }
}
