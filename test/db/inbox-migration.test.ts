import { Migrator, sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDatabase, migrateToLatest, type DatabaseHandle } from '../../src/db/index.js';
import { MIGRATIONS } from '../../src/db/migrations/index.js';
import { describeEachDialect, type TestDatabase } from '../support/databases.js';

const BEFORE_INBOX = '2026-11-22-010-learning-loop';
const claim = {
  attempts: 1,
  next_attempt_at: '2030-01-01T00:00:00.000Z',
  last_error: null,
  received_at: '2030-01-01T00:00:00.000Z',
  finished_at: null,
  run_ids: '["run_1"]',
  completed_handlers: '[]',
  locked_by: 'w',
  locked_until: '2030-01-01T00:01:00.000Z',
};

await describeEachDialect('the inbox migration', (dialect) => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;
  beforeAll(async () => {
    testDb = await dialect.create();
    handle = await createDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir });
  });
  afterAll(async () => {
    await handle.close();
    await testDb.drop();
  });

  it('moves webhook deliveries and trigger events of a database from before it into the one inbox, and back down', async () => {
    const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => MIGRATIONS } });
    expect((await migrator.migrateTo(BEFORE_INBOX)).error).toBeUndefined();
    const db = handle.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    await db
      .insertInto('webhook_deliveries')
      .values([
        {
          delivery_id: 'del_1',
          webhook: 'shop',
          event: 'shop.paid',
          dedupe_key: 'id:1',
          payload: '{"a":1}',
          headers: '{"x-github-event":"push"}',
          status: 'processing',
          ...claim,
        },
        {
          delivery_id: 'del_2',
          webhook: 'shop',
          event: 'shop.paid',
          dedupe_key: 'id:2',
          payload: '{}',
          headers: '{}',
          status: 'failed',
          ...claim,
          locked_by: null,
          locked_until: null,
        },
      ])
      .execute();
    await db
      .insertInto('trigger_events')
      .values([
        {
          event_id: 'evt_1',
          trigger_kind: 'listener',
          trigger_name: 'feed',
          event: 'alert',
          dedupe_key: null,
          payload: '{}',
          status: 'done',
          ...claim,
          locked_by: null,
          locked_until: null,
        },
      ])
      .execute();

    await migrateToLatest(handle.db);
    const rows = await handle.db
      .selectFrom('inbox_items')
      .select(['item_id', 'source_kind', 'source_name', 'status', 'dedupe_key', 'headers', 'run_ids', 'locked_by'])
      .orderBy('item_id')
      .execute();
    expect(rows).toEqual([
      {
        item_id: 'del_1',
        source_kind: 'webhook',
        source_name: 'shop',
        status: 'running',
        dedupe_key: 'id:1',
        headers: '{"x-github-event":"push"}',
        run_ids: '["run_1"]',
        locked_by: 'w',
      },
      {
        item_id: 'del_2',
        source_kind: 'webhook',
        source_name: 'shop',
        status: 'dead',
        dedupe_key: 'id:2',
        headers: '{}',
        run_ids: '["run_1"]',
        locked_by: null,
      },
      {
        item_id: 'evt_1',
        source_kind: 'listener',
        source_name: 'feed',
        status: 'done',
        dedupe_key: null,
        headers: '{}',
        run_ids: '["run_1"]',
        locked_by: null,
      },
    ]);
    const tables = (await handle.db.introspection.getTables()).map((table) => table.name);
    expect(tables).not.toContain('webhook_deliveries');
    expect(tables).not.toContain('trigger_events');

    expect((await migrator.migrateTo(BEFORE_INBOX)).error).toBeUndefined();
    const back = await sql<{
      delivery_id: string;
      status: string;
    }>`select delivery_id, status from webhook_deliveries order by delivery_id`.execute(handle.db);
    expect(back.rows).toEqual([
      { delivery_id: 'del_1', status: 'processing' },
      { delivery_id: 'del_2', status: 'failed' },
    ]);
    await migrateToLatest(handle.db);
  });
});
