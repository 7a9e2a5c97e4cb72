import { sql, type Kysely } from 'kysely';

// Frozen in time like every migration: Kysely<any>, no imports from the app.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations never import the app's table types
type AnyDb = Kysely<any>;

/**
 * One durable inbox for every trigger: webhook deliveries and poller/listener events had two tables with
 * the same columns and two copies of the claim SQL. Rows move over; `processing` becomes `running` and
 * `failed` (handlers out of attempts) becomes `dead`.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('inbox_items')
    .addColumn('item_id', 'text', (col) => col.primaryKey())
    .addColumn('source_kind', 'text', (col) => col.notNull())
    .addColumn('source_name', 'text', (col) => col.notNull())
    .addColumn('event', 'text', (col) => col.notNull())
    .addColumn('dedupe_key', 'text')
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('headers', 'text', (col) => col.notNull().defaultTo('{}'))
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (col) => col.notNull())
    .addColumn('last_error', 'text')
    .addColumn('received_at', 'text', (col) => col.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('run_ids', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('completed_handlers', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'text')
    .execute();
  // What makes a redelivery a duplicate, also across replicas; a NULL key (a message without an id) never collides.
  await db.schema
    .createIndex('inbox_items_dedupe_idx')
    .on('inbox_items')
    .columns(['source_kind', 'source_name', 'dedupe_key'])
    .unique()
    .execute();
  // The worker's claim (due pending items) and the operators' lists and counts.
  await db.schema.createIndex('inbox_items_due_idx').on('inbox_items').columns(['status', 'next_attempt_at']).execute();
  await db.schema
    .createIndex('inbox_items_received_idx')
    .on('inbox_items')
    .columns(['status', 'received_at'])
    .execute();
  await db.schema
    .createIndex('inbox_items_source_idx')
    .on('inbox_items')
    .columns(['source_kind', 'source_name', 'status'])
    .execute();

  const status = sql`case status when 'processing' then 'running' when 'failed' then 'dead' else status end`;
  const common = sql`event, dedupe_key, payload`;
  const rest = sql`attempts, next_attempt_at, last_error, received_at, finished_at, run_ids, completed_handlers, locked_by, locked_until`;
  const columns = sql`item_id, source_kind, source_name, event, dedupe_key, payload, headers, status, attempts, next_attempt_at, last_error, received_at, finished_at, run_ids, completed_handlers, locked_by, locked_until`;
  await sql`insert into inbox_items (${columns}) select delivery_id, 'webhook', webhook, ${common}, headers, ${status}, ${rest} from webhook_deliveries`.execute(
    db,
  );
  await sql`insert into inbox_items (${columns}) select event_id, trigger_kind, trigger_name, ${common}, '{}', ${status}, ${rest} from trigger_events`.execute(
    db,
  );
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('trigger_events').execute();
}

export async function down(db: AnyDb): Promise<void> {
  const common = sql`attempts, next_attempt_at, last_error, received_at, finished_at, run_ids, completed_handlers, locked_by, locked_until`;
  const status = sql`case status when 'running' then 'processing' when 'dead' then 'failed' else status end`;
  await createWebhookDeliveries(db);
  await createTriggerEvents(db);
  await sql`insert into webhook_deliveries select item_id, source_name, event, coalesce(dedupe_key, item_id), payload, headers, ${status}, ${common} from inbox_items where source_kind = 'webhook'`.execute(
    db,
  );
  await sql`insert into trigger_events select item_id, source_kind, source_name, event, dedupe_key, payload, ${status}, ${common} from inbox_items where source_kind <> 'webhook'`.execute(
    db,
  );
  await db.schema.dropTable('inbox_items').execute();
}

async function createWebhookDeliveries(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('delivery_id', 'text', (col) => col.primaryKey())
    .addColumn('webhook', 'text', (col) => col.notNull())
    .addColumn('event', 'text', (col) => col.notNull())
    .addColumn('dedupe_key', 'text', (col) => col.notNull())
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('headers', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (col) => col.notNull())
    .addColumn('last_error', 'text')
    .addColumn('received_at', 'text', (col) => col.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('run_ids', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('completed_handlers', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_dedupe_idx')
    .on('webhook_deliveries')
    .columns(['webhook', 'dedupe_key'])
    .unique()
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due_idx')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_received_idx')
    .on('webhook_deliveries')
    .columns(['status', 'received_at'])
    .execute();
}

async function createTriggerEvents(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('trigger_events')
    .addColumn('event_id', 'text', (col) => col.primaryKey())
    .addColumn('trigger_kind', 'text', (col) => col.notNull())
    .addColumn('trigger_name', 'text', (col) => col.notNull())
    .addColumn('event', 'text', (col) => col.notNull())
    .addColumn('dedupe_key', 'text')
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (col) => col.notNull())
    .addColumn('last_error', 'text')
    .addColumn('received_at', 'text', (col) => col.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('run_ids', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('completed_handlers', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'text')
    .execute();
  await db.schema
    .createIndex('trigger_events_dedupe_idx')
    .on('trigger_events')
    .columns(['trigger_kind', 'trigger_name', 'dedupe_key'])
    .unique()
    .execute();
  await db.schema
    .createIndex('trigger_events_due_idx')
    .on('trigger_events')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('trigger_events_received_idx')
    .on('trigger_events')
    .columns(['status', 'received_at'])
    .execute();
}
