import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../../../src/db/index.js';
import { createWebhookDeliveryStore, type NewWebhookDelivery, type WebhookDeliveryStore } from '../../../../src/gateway/triggers/webhooks/index.js';
import { dialects, type TestDatabase } from '../../../support/databases.js';
import { migrateWebhookTables } from './webhook-harness.js';

const T0 = '2030-01-01T00:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();

let counter = 0;
const delivery = (overrides: Partial<NewWebhookDelivery> = {}): NewWebhookDelivery => ({
  delivery_id: `del_${String(++counter).padStart(24, '0')}`,
  webhook: 'stripe',
  event: 'stripe.invoice.paid',
  dedupe_key: `id:evt_${counter}`,
  payload: '{"type":"invoice.paid"}',
  headers: { 'content-type': 'application/json' },
  status: 'pending',
  received_at: at(counter),
  ...overrides,
});

for (const dialect of await dialects()) {
  describe.skipIf(dialect.skip)(`webhook delivery store on ${dialect.name}`, () => {
    let testDb: TestDatabase;
    let database: DatabaseHandle;
    let store: WebhookDeliveryStore;
    const claim = (workerId: string, now = at(1000), limit = 10) => store.claimDue({ now, workerId, leaseUntil: at(2000), limit });

    beforeAll(async () => {
      testDb = await dialect.create();
      database = await createDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir });
      await migrateWebhookTables(database.db as Kysely<unknown>);
      store = createWebhookDeliveryStore(database.db);
    });
    afterAll(async () => {
      await database.close();
      await testDb.drop();
    });
    beforeEach(async () => {
      await (database.db as unknown as Kysely<{ webhook_deliveries: object }>).deleteFrom('webhook_deliveries').execute();
    });

    it('stores a delivery and answers a second one with the same dedupe key with the original', async () => {
      const first = delivery();
      const stored = await store.insert(first);
      expect(stored).toEqual({ duplicate: false, delivery: { ...first, attempts: 0, next_attempt_at: first.received_at, last_error: null, finished_at: null, run_ids: [], completed_handlers: [] } });
      const again = await store.insert(delivery({ dedupe_key: first.dedupe_key }));
      expect(again).toMatchObject({ duplicate: true, delivery: { delivery_id: first.delivery_id } });
      // The key is unique per webhook only.
      expect((await store.insert(delivery({ dedupe_key: first.dedupe_key, webhook: 'other' }))).duplicate).toBe(false);
    });

    it('lets exactly one of many concurrent inserts of the same key win', async () => {
      const results = await Promise.all(Array.from({ length: 8 }, () => store.insert(delivery({ dedupe_key: 'header:same' }))));
      expect(results.filter((result) => !result.duplicate)).toHaveLength(1);
      expect(new Set(results.map((result) => result.delivery.delivery_id)).size).toBe(1);
    });

    it('finishes an ignored delivery at once and never claims it', async () => {
      const ignored = await store.insert(delivery({ status: 'ignored' }));
      expect(ignored.delivery).toMatchObject({ status: 'ignored', finished_at: ignored.delivery.received_at });
      expect(await claim('w1')).toEqual([]);
    });

    it('claims due pending deliveries oldest first, up to the limit, counting the attempt', async () => {
      const [a, b, c] = [delivery(), delivery(), delivery()];
      for (const item of [c, a, b]) await store.insert(item);
      const claimed = await claim('w1', at(1000), 2);
      expect(claimed.map((item) => [item.delivery_id, item.status, item.attempts])).toEqual([[a.delivery_id, 'processing', 1], [b.delivery_id, 'processing', 1]]);
      expect((await claim('w2')).map((item) => item.delivery_id)).toEqual([c.delivery_id]);
      expect(await claim('w3')).toEqual([]);
    });

    it('does not claim a delivery before its next attempt time', async () => {
      const item = delivery();
      await store.insert(item);
      expect(await claim('w1', at(-100))).toEqual([]);
    });

    it('gives each delivery to one worker when workers claim at the same time', async () => {
      const items = Array.from({ length: 20 }, () => delivery());
      for (const item of items) await store.insert(item);
      const rounds = await Promise.all(['w1', 'w2', 'w3', 'w4'].map((worker) => claim(worker, at(1000), 20)));
      const ids = rounds.flat().map((item) => item.delivery_id);
      expect(ids.sort()).toEqual(items.map((item) => item.delivery_id).sort());
    });

    it('settles only for the worker holding the claim', async () => {
      const item = delivery();
      await store.insert(item);
      await claim('w1');
      const outcome = { status: 'done' as const, finishedAt: at(1500), lastError: null, runIds: ['run_1'], completedHandlers: ['h1'] };
      expect(await store.settle(item.delivery_id, 'w2', outcome)).toBe(false);
      expect(await store.settle(item.delivery_id, 'w1', outcome)).toBe(true);
      expect(await store.get(item.delivery_id)).toMatchObject({ status: 'done', finished_at: at(1500), run_ids: ['run_1'], completed_handlers: ['h1'], attempts: 1 });
      expect(await store.settle(item.delivery_id, 'w1', outcome)).toBe(false);
    });

    it('reschedules an attempt, optionally without counting it', async () => {
      const item = delivery();
      await store.insert(item);
      await claim('w1');
      await store.settle(item.delivery_id, 'w1', { status: 'pending', nextAttemptAt: at(1030), lastError: 'boom', runIds: ['run_1'], completedHandlers: [] });
      expect(await store.get(item.delivery_id)).toMatchObject({ status: 'pending', attempts: 1, next_attempt_at: at(1030), last_error: 'boom' });
      await claim('w1', at(1030));
      await store.settle(item.delivery_id, 'w1', { status: 'pending', nextAttemptAt: at(1030), lastError: 'shutdown', runIds: ['run_1'], completedHandlers: [], refundAttempt: true });
      expect(await store.get(item.delivery_id)).toMatchObject({ status: 'pending', attempts: 1 });
    });

    it('takes back processing deliveries whose lease lapsed, or all of them when asked', async () => {
      const [live, lapsed, other] = [delivery(), delivery(), delivery()];
      for (const item of [live, lapsed, other]) await store.insert(item);
      await store.claimDue({ now: at(1000), workerId: 'w1', leaseUntil: at(1100), limit: 1 });
      await store.claimDue({ now: at(1000), workerId: 'dead', leaseUntil: at(1100), limit: 2 });
      await store.renewLeases({ deliveryIds: [live.delivery_id], workerId: 'w1', leaseUntil: at(6000) });
      expect(await store.releaseStale({ now: at(1200), maxAttempts: 5 })).toBe(2);
      expect(await store.get(live.delivery_id)).toMatchObject({ status: 'processing' });
      expect(await store.get(lapsed.delivery_id)).toMatchObject({ status: 'pending', next_attempt_at: at(1200), attempts: 1 });
      // Claimed a second time, then everything is taken back: those out of attempts fail.
      await claim('w2', at(1200));
      expect(await store.releaseStale({ now: at(1300), maxAttempts: 2, all: true })).toBe(3);
      expect(await store.countByStatus()).toEqual({ pending: 1, processing: 0, done: 0, failed: 2, ignored: 0 });
      expect(await store.get(live.delivery_id)).toMatchObject({ status: 'pending', attempts: 1 });
    });

    it('fails a lapsed delivery that has used every attempt', async () => {
      const item = delivery();
      await store.insert(item);
      await claim('dead');
      expect(await store.releaseStale({ now: at(3000), maxAttempts: 1 })).toBe(1);
      expect(await store.get(item.delivery_id)).toMatchObject({ status: 'failed', finished_at: at(3000), last_error: expect.stringContaining('interrupted') });
    });

    it('lists newest first by status and webhook, with paging, and retries failed deliveries only', async () => {
      const items = [delivery(), delivery({ webhook: 'github' }), delivery(), delivery()];
      for (const item of items) await store.insert(item);
      await claim('w1', at(1000), 2);
      for (const item of items.slice(0, 2)) await store.settle(item.delivery_id, 'w1', { status: 'failed', finishedAt: at(1100), lastError: 'gave up', runIds: [], completedHandlers: [] });
      expect((await store.list({ status: 'failed' })).map((item) => item.delivery_id)).toEqual([items[1].delivery_id, items[0].delivery_id]);
      expect((await store.list({ status: 'failed', webhook: 'stripe' })).map((item) => item.delivery_id)).toEqual([items[0].delivery_id]);
      expect((await store.list({ limit: 2, offset: 1 })).map((item) => item.delivery_id)).toEqual([items[2].delivery_id, items[1].delivery_id]);
      expect(await store.countByStatus('stripe')).toEqual({ pending: 2, processing: 0, done: 0, failed: 1, ignored: 0 });

      expect(await store.retry(items[2].delivery_id, at(1200))).toBeUndefined();
      expect(await store.retry('del_missing', at(1200))).toBeUndefined();
      expect(await store.retry(items[0].delivery_id, at(1200))).toMatchObject({ status: 'pending', attempts: 0, next_attempt_at: at(1200), finished_at: null, last_error: 'gave up' });
      expect((await claim('w2', at(1200))).map((item) => item.delivery_id)).toContain(items[0].delivery_id);
    });
  });
}
