import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../../src/db/index.js';
import { createTriggerEventStore, type NewTriggerEvent, type TriggerEventStore } from '../../../src/gateway/triggers/index.js';
import { dialects, type TestDatabase } from '../../support/databases.js';

const at = (second: number) => new Date(Date.UTC(2030, 0, 1, 0, 0, second)).toISOString();

for (const dialect of await dialects()) {
  describe.skipIf(dialect.skip)(`trigger event store on ${dialect.name}`, () => {
    let testDb: TestDatabase;
    let database: DatabaseHandle;
    let store: TriggerEventStore;
    let sequence = 0;
    beforeAll(async () => {
      testDb = await dialect.create();
      database = await createDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir });
      store = createTriggerEventStore(database.db);
    });
    afterAll(async () => {
      await database.close();
      await testDb.drop();
    });
    beforeEach(async () => {
      await database.db.deleteFrom('trigger_events').execute();
    });

    const event = (overrides: Partial<NewTriggerEvent> = {}): NewTriggerEvent => ({
      event_id: `evt_${String(++sequence).padStart(4, '0')}`,
      trigger_kind: 'listener',
      trigger_name: 'orders',
      event: 'order.created',
      dedupe_key: null,
      payload: '{"id":1}',
      status: 'pending',
      received_at: at(sequence),
      ...overrides,
    });

    it('dedupes by trigger and key, never events without a key', async () => {
      const first = await store.insert(event({ dedupe_key: 'msg:1' }));
      expect(first).toMatchObject({ duplicate: false, event: { status: 'pending', attempts: 0, run_ids: [], completed_handlers: [] } });
      expect(await store.insert(event({ dedupe_key: 'msg:1' }))).toMatchObject({ duplicate: true, event: { event_id: first.event.event_id } });
      expect(await store.insert(event({ dedupe_key: 'msg:1', trigger_name: 'other' }))).toMatchObject({ duplicate: false });
      expect(await store.insert(event({ dedupe_key: 'msg:1', trigger_kind: 'poller' }))).toMatchObject({ duplicate: false });
      expect(await store.insert(event())).toMatchObject({ duplicate: false });
      expect(await store.insert(event())).toMatchObject({ duplicate: false });
      expect(await store.list()).toHaveLength(5);
    });

    it('tells which keys a trigger has stored', async () => {
      await store.insert(event({ trigger_kind: 'poller', trigger_name: 'tickets', dedupe_key: 'id:1' }));
      await store.insert(event({ trigger_kind: 'poller', trigger_name: 'tickets', dedupe_key: 'id:2' }));
      await store.insert(event({ trigger_kind: 'poller', trigger_name: 'other', dedupe_key: 'id:3' }));
      const keys = Array.from({ length: 1200 }, (_, index) => `id:${index}`);
      expect([...(await store.knownKeys({ kind: 'poller', name: 'tickets' }, keys))].sort()).toEqual(['id:1', 'id:2']);
      expect(await store.knownKeys({ kind: 'poller', name: 'tickets' }, [])).toEqual(new Set());
    });

    it('claims each due event once, settles it, and queues a failed one again on retry', async () => {
      const { event: stored } = await store.insert(event());
      await store.insert(event({ status: 'ignored' }));
      const claimed = await store.claimDue({ now: at(100), workerId: 'w1', leaseUntil: at(160), limit: 10 });
      expect(claimed.map((item) => [item.event_id, item.status, item.attempts])).toEqual([[stored.event_id, 'processing', 1]]);
      expect(await store.claimDue({ now: at(100), workerId: 'w2', leaseUntil: at(160), limit: 10 })).toEqual([]);
      expect(await store.settle(stored.event_id, 'w2', { status: 'done', finishedAt: at(101), lastError: null, runIds: [], completedHandlers: [] })).toBe(false);
      expect(await store.settle(stored.event_id, 'w1', { status: 'failed', finishedAt: at(101), lastError: 'boom', runIds: ['run_1'], completedHandlers: [] })).toBe(true);
      expect(await store.countFailed()).toEqual(new Map([['listener:orders', 1]]));
      expect((await store.list({ status: 'failed' })).map((item) => item.event_id)).toEqual([stored.event_id]);

      expect(await store.retry(stored.event_id, at(200))).toMatchObject({ status: 'pending', attempts: 0, next_attempt_at: at(200), finished_at: null, run_ids: ['run_1'] });
      expect(await store.retry(stored.event_id, at(200))).toBeUndefined();
      expect(await store.retry('evt_missing', at(200))).toBeUndefined();
    });

    it('takes back events whose worker stopped renewing its lease', async () => {
      const { event: stored } = await store.insert(event());
      await store.claimDue({ now: at(100), workerId: 'dead', leaseUntil: at(160), limit: 1 });
      expect(await store.releaseStale({ now: at(150), maxAttempts: 3 })).toBe(0);
      expect(await store.releaseStale({ now: at(170), maxAttempts: 3 })).toBe(1);
      expect(await store.get(stored.event_id)).toMatchObject({ status: 'pending', next_attempt_at: at(170) });
    });

    it('lists newest first, filtered by kind, name and status', async () => {
      await store.insert(event({ trigger_kind: 'poller', trigger_name: 'tickets' }));
      await store.insert(event());
      await store.insert(event({ status: 'ignored' }));
      expect((await store.list()).map((item) => item.received_at)).toEqual([at(sequence), at(sequence - 1), at(sequence - 2)]);
      expect(await store.list({ kind: 'poller' })).toHaveLength(1);
      expect(await store.list({ name: 'orders', status: 'ignored' })).toHaveLength(1);
      expect(await store.list({ limit: 1, offset: 1 })).toHaveLength(1);
    });
  });
}
