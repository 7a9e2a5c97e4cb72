import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../../../src/db/index.js';
import {
  createInboxStore,
  type InboxSourceKind,
  type InboxStore,
  type NewInboxItem,
} from '../../../../src/gateway/triggers/index.js';
import { describeEachDialect, type TestDatabase } from '../../../support/databases.js';

const T0 = '2030-01-01T00:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();
const ALL: InboxSourceKind[] = ['webhook', 'poller', 'listener'];

let counter = 0;
const delivery = (overrides: Partial<NewInboxItem> = {}): NewInboxItem => ({
  item_id: `del_${String(++counter).padStart(24, '0')}`,
  source_kind: 'webhook',
  source_name: 'stripe',
  event: 'stripe.invoice.paid',
  dedupe_key: `id:evt_${counter}`,
  payload: '{"type":"invoice.paid"}',
  headers: { 'content-type': 'application/json' },
  status: 'pending',
  received_at: at(counter),
  ...overrides,
});
const event = (overrides: Partial<NewInboxItem> = {}): NewInboxItem =>
  delivery({
    item_id: `evt_${String(++counter).padStart(24, '0')}`,
    source_kind: 'listener',
    source_name: 'orders',
    event: 'order.created',
    dedupe_key: null,
    headers: {},
    ...overrides,
  });

await describeEachDialect('inbox store', (dialect) => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  let store: InboxStore;
  const claim = (workerId: string, now = at(1000), limit = 10, kinds = ALL) =>
    store.claimDue({ now, workerId, leaseUntil: at(2000), limit, kinds });

  beforeAll(async () => {
    testDb = await dialect.create();
    database = await createDatabase({ databaseUrl: testDb.databaseUrl, dataDir: testDb.dataDir });
    store = createInboxStore(database.db);
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });
  beforeEach(async () => {
    await database.db.deleteFrom('inbox_items').execute();
  });

  it('stores an item and answers a second one with the same source and dedupe key with the original', async () => {
    const first = delivery();
    const stored = await store.insert(first);
    expect(stored).toEqual({
      duplicate: false,
      item: {
        ...first,
        // Stored as received, handed back parsed.
        payload: { type: 'invoice.paid' },
        attempts: 0,
        next_attempt_at: first.received_at,
        last_error: null,
        finished_at: null,
        run_ids: [],
        completed_handlers: [],
        // Stored only when telemetry is on (the intake's trace, linked from the run's).
        traceparent: null,
      },
    });
    expect(await store.insert(delivery({ dedupe_key: first.dedupe_key }))).toMatchObject({
      duplicate: true,
      item: { item_id: first.item_id },
    });
    // The key is unique per source only.
    expect((await store.insert(delivery({ dedupe_key: first.dedupe_key, source_name: 'other' }))).duplicate).toBe(
      false,
    );
    expect((await store.insert(event({ dedupe_key: first.dedupe_key, source_name: 'stripe' }))).duplicate).toBe(false);
    // Messages without an id never collide.
    expect((await store.insert(event())).duplicate).toBe(false);
    expect((await store.insert(event())).duplicate).toBe(false);
    expect(await store.list()).toHaveLength(5);
  });

  it('lets exactly one of many concurrent inserts of the same key win', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () => store.insert(delivery({ dedupe_key: 'sha256:same' }))),
    );
    expect(results.filter((result) => !result.duplicate)).toHaveLength(1);
    expect(new Set(results.map((result) => result.item.item_id)).size).toBe(1);
  });

  it('tells which keys a source has stored', async () => {
    await store.insert(event({ source_kind: 'poller', source_name: 'tickets', dedupe_key: 'id:1' }));
    await store.insert(event({ source_kind: 'poller', source_name: 'tickets', dedupe_key: 'id:2' }));
    await store.insert(event({ source_kind: 'poller', source_name: 'other', dedupe_key: 'id:3' }));
    const keys = Array.from({ length: 1200 }, (_, index) => `id:${index}`);
    expect([...(await store.knownKeys({ kind: 'poller', name: 'tickets' }, keys))].sort()).toEqual(['id:1', 'id:2']);
    expect(await store.knownKeys({ kind: 'poller', name: 'tickets' }, [])).toEqual(new Set());
  });

  it('finishes an ignored item at once and never claims it', async () => {
    const ignored = await store.insert(delivery({ status: 'ignored' }));
    expect(ignored.item).toMatchObject({ status: 'ignored', finished_at: ignored.item.received_at });
    expect(await claim('w1')).toEqual([]);
  });

  it("claims due pending items oldest first, up to the limit, only of the lane's kinds, counting the attempt", async () => {
    const [a, b, c] = [delivery(), delivery(), delivery()];
    const listened = event();
    for (const item of [c, a, listened, b]) await store.insert(item);
    const claimed = await claim('w1', at(1000), 2, ['webhook']);
    expect(claimed.map((item) => [item.item_id, item.status, item.attempts])).toEqual([
      [a.item_id, 'running', 1],
      [b.item_id, 'running', 1],
    ]);
    expect((await claim('w2', at(1000), 10, ['webhook'])).map((item) => item.item_id)).toEqual([c.item_id]);
    expect((await claim('w3', at(1000), 10, ['poller', 'listener'])).map((item) => item.item_id)).toEqual([
      listened.item_id,
    ]);
    expect(await claim('w4')).toEqual([]);
  });

  it('does not claim an item before its next attempt time, and says when the next one is due', async () => {
    const item = delivery();
    await store.insert(item);
    expect(await claim('w1', at(-100))).toEqual([]);
    expect(await store.nextDueAt(['webhook'])).toBe(item.received_at);
    expect(await store.nextDueAt(['listener'])).toBeUndefined();
  });

  it('gives each item to one worker when many workers claim at the same time', async () => {
    const items = Array.from({ length: 40 }, () => delivery());
    for (const item of items) await store.insert(item);
    const rounds = await Promise.all(['w1', 'w2', 'w3', 'w4', 'w5', 'w6'].map((worker) => claim(worker, at(1000), 15)));
    const ids = rounds.flat().map((item) => item.item_id);
    expect(ids.sort()).toEqual(items.map((item) => item.item_id).sort());
  });

  it('settles only for the worker holding the claim', async () => {
    const item = delivery();
    await store.insert(item);
    await claim('w1');
    const outcome = {
      status: 'done' as const,
      finishedAt: at(1500),
      lastError: null,
      runIds: ['run_1'],
      completedHandlers: ['h1'],
    };
    expect(await store.settle(item.item_id, 'w2', outcome)).toBe(false);
    expect(await store.settle(item.item_id, 'w1', outcome)).toBe(true);
    expect(await store.get(item.item_id)).toMatchObject({
      status: 'done',
      finished_at: at(1500),
      run_ids: ['run_1'],
      completed_handlers: ['h1'],
      attempts: 1,
    });
    expect(await store.settle(item.item_id, 'w1', outcome)).toBe(false);
  });

  it('reschedules an attempt, optionally without counting it', async () => {
    const item = delivery();
    await store.insert(item);
    await claim('w1');
    await store.settle(item.item_id, 'w1', {
      status: 'pending',
      nextAttemptAt: at(1030),
      lastError: 'boom',
      runIds: ['run_1'],
      completedHandlers: [],
    });
    expect(await store.get(item.item_id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      next_attempt_at: at(1030),
      last_error: 'boom',
    });
    await claim('w1', at(1030));
    await store.settle(item.item_id, 'w1', {
      status: 'pending',
      nextAttemptAt: at(1030),
      lastError: 'shutdown',
      runIds: ['run_1'],
      completedHandlers: [],
      refundAttempt: true,
    });
    expect(await store.get(item.item_id)).toMatchObject({ status: 'pending', attempts: 1 });
  });

  it("takes back running items whose lease lapsed, or all of a lane's when asked", async () => {
    const [live, lapsed, other] = [delivery(), delivery(), delivery()];
    for (const item of [live, lapsed, other]) await store.insert(item);
    await store.claimDue({ now: at(1000), workerId: 'w1', leaseUntil: at(1100), limit: 1, kinds: ['webhook'] });
    await store.claimDue({ now: at(1000), workerId: 'dead', leaseUntil: at(1100), limit: 2, kinds: ['webhook'] });
    await store.renewLeases({ ids: [live.item_id], workerId: 'w1', leaseUntil: at(6000) });
    expect(await store.releaseStale({ now: at(1200), maxAttempts: 5, kinds: ['listener'] })).toBe(0);
    expect(await store.releaseStale({ now: at(1200), maxAttempts: 5, kinds: ['webhook'] })).toBe(2);
    expect(await store.get(live.item_id)).toMatchObject({ status: 'running' });
    expect(await store.get(lapsed.item_id)).toMatchObject({
      status: 'pending',
      next_attempt_at: at(1200),
      attempts: 1,
    });
    // Claimed a second time, then everything is taken back: those out of attempts are dead letters.
    await claim('w2', at(1200));
    expect(await store.releaseStale({ now: at(1300), maxAttempts: 2, kinds: ['webhook'], all: true })).toBe(3);
    expect(await store.stats()).toEqual([
      {
        kind: 'webhook',
        name: 'stripe',
        pending: 1,
        running: 0,
        done: 0,
        dead: 2,
        ignored: 0,
        oldest_pending_at: live.received_at,
      },
    ]);
    expect(await store.get(live.item_id)).toMatchObject({ status: 'pending', attempts: 1 });
  });

  it('makes a lapsed item that has used every attempt a dead letter', async () => {
    const item = delivery();
    await store.insert(item);
    await claim('dead');
    expect(await store.releaseStale({ now: at(3000), maxAttempts: 1, kinds: ['webhook'] })).toBe(1);
    expect(await store.get(item.item_id)).toMatchObject({
      status: 'dead',
      finished_at: at(3000),
      last_error: expect.stringContaining('interrupted'),
    });
  });

  it('lists newest first by status, kind and name, with paging, and replays dead items only', async () => {
    const items = [delivery(), delivery({ source_name: 'github' }), delivery(), event()];
    for (const item of items) await store.insert(item);
    await claim('w1', at(1000), 2);
    for (const item of items.slice(0, 2))
      await store.settle(item.item_id, 'w1', {
        status: 'dead',
        finishedAt: at(1100),
        lastError: 'gave up',
        runIds: [],
        completedHandlers: [],
      });
    expect((await store.list({ status: 'dead' })).map((item) => item.item_id)).toEqual([
      items[1].item_id,
      items[0].item_id,
    ]);
    expect((await store.list({ status: 'dead', kind: 'webhook', name: 'stripe' })).map((item) => item.item_id)).toEqual(
      [items[0].item_id],
    );
    expect((await store.list({ kind: 'listener' })).map((item) => item.item_id)).toEqual([items[3].item_id]);
    expect((await store.list({ limit: 2, offset: 1 })).map((item) => item.item_id)).toEqual([
      items[2].item_id,
      items[1].item_id,
    ]);
    expect((await store.stats()).sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      {
        kind: 'webhook',
        name: 'github',
        pending: 0,
        running: 0,
        done: 0,
        dead: 1,
        ignored: 0,
        oldest_pending_at: null,
      },
      {
        kind: 'listener',
        name: 'orders',
        pending: 1,
        running: 0,
        done: 0,
        dead: 0,
        ignored: 0,
        oldest_pending_at: items[3].received_at,
      },
      {
        kind: 'webhook',
        name: 'stripe',
        pending: 1,
        running: 0,
        done: 0,
        dead: 1,
        ignored: 0,
        oldest_pending_at: items[2].received_at,
      },
    ]);

    expect(await store.replay(items[2].item_id, at(1200))).toBeUndefined();
    expect(await store.replay('del_missing', at(1200))).toBeUndefined();
    expect(await store.replay(items[0].item_id, at(1200))).toMatchObject({
      status: 'pending',
      attempts: 0,
      next_attempt_at: at(1200),
      finished_at: null,
      last_error: 'gave up',
    });
    expect((await claim('w2', at(1200))).map((item) => item.item_id)).toContain(items[0].item_id);
  });
});
