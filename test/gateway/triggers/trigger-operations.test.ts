import { afterEach, beforeEach, expect, it } from 'vitest';
import type { NewInboxItem } from '../../../src/gateway/triggers/index.js';
import { startTriggerHarness, type TriggerHarness } from './trigger-harness.js';

const YAML = `
webhooks:
  - { name: shop, verification: stripe, secret: s, handlers: [{ event: "*", agent: billing, prompt: "x" }] }
listeners:
  - { name: feed, source: sse, url: "http://127.0.0.1:9/e", handlers: [{ event: "*", agent: billing, prompt: "x" }] }
`;

const at = (second: number) => `2030-01-01T00:00:0${second}.000Z`;
const delivery = (second: number): NewInboxItem => ({
  item_id: `del_${second}`,
  source_kind: 'webhook',
  source_name: 'shop',
  event: 'shop.x',
  dedupe_key: `k${second}`,
  payload: '{}',
  status: 'pending',
  received_at: at(second),
});
const event = (second: number): NewInboxItem => ({
  item_id: `evt_${second}`,
  source_kind: 'listener',
  source_name: 'feed',
  event: 'e',
  dedupe_key: null,
  payload: '{}',
  status: 'pending',
  received_at: at(second),
});

let harness: TriggerHarness;
beforeEach(async () => {
  harness = await startTriggerHarness(YAML, { triggers: { now: () => new Date(at(9)) } });
  for (const item of [delivery(4), event(5), delivery(6), event(7), delivery(8)]) await harness.store.insert(item);
  // del_8 and del_4 used every attempt; del_6 is done.
  const claimed = await harness.store.claimDue({
    now: at(9),
    workerId: 'w',
    leaseUntil: at(9),
    limit: 3,
    kinds: ['webhook'],
  });
  for (const { item_id } of claimed) {
    const status = item_id === 'del_6' ? ('done' as const) : ('dead' as const);
    await harness.store.settle(item_id, 'w', {
      status,
      finishedAt: at(9),
      lastError: status === 'dead' ? 'gave up' : null,
      runIds: [],
      completedHandlers: [],
    });
  }
});
afterEach(() => harness.close());

it('lists webhook deliveries and trigger events of the one inbox newest first, by state, kind and source', async () => {
  const ids = async (query: {
    limit: number;
    offset: number;
    status?: 'dead';
    kind?: 'webhook' | 'listener';
    trigger?: string;
  }) => (await harness.triggers.operations.listDeliveries(query)).map((item) => item.id);
  expect(await ids({ limit: 10, offset: 0 })).toEqual(['del_8', 'evt_7', 'del_6', 'evt_5', 'del_4']);
  expect(await ids({ limit: 2, offset: 1 })).toEqual(['evt_7', 'del_6']);
  expect(await ids({ limit: 10, offset: 0, status: 'dead' })).toEqual(['del_8', 'del_4']);
  expect(await ids({ limit: 10, offset: 0, kind: 'listener' })).toEqual(['evt_7', 'evt_5']);
  expect(await ids({ limit: 10, offset: 0, trigger: 'feed' })).toEqual(['evt_7', 'evt_5']);
});

it('lists each source with its inbox, and replays dead letters only', async () => {
  const [shop, feed] = await harness.triggers.operations.listTriggers();
  expect(shop).toMatchObject({
    kind: 'webhook',
    name: 'shop',
    source: 'stripe',
    state: 'connected',
    inbox: { pending: 0, running: 0, done: 1, dead: 2, ignored: 0, oldest_pending_age_seconds: 0 },
  });
  expect(feed).toMatchObject({
    kind: 'listener',
    name: 'feed',
    inbox: { pending: 2, running: 0, done: 0, dead: 0, oldest_pending_age_seconds: 4 },
  });
  expect(await harness.triggers.operations.replay('del_8')).toMatchObject({
    id: 'del_8',
    kind: 'webhook',
    status: 'pending',
    attempts: 0,
  });
  await expect(harness.triggers.operations.replay('del_6')).rejects.toMatchObject({
    status: 409,
    code: 'delivery_not_dead',
  });
  await expect(harness.triggers.operations.replay('del_missing')).rejects.toMatchObject({ status: 404 });
});
