import { afterEach, beforeEach, expect, it } from 'vitest';
import type { WebhookDeliveryView, WebhookInboxView } from '../../../src/gateway/triggers/index.js';
import { startTriggerHarness, type TriggerHarness } from './trigger-harness.js';

const YAML = `
listeners:
  - { name: feed, source: sse, url: "http://127.0.0.1:9/e", handlers: [{ event: "*", agent: billing, prompt: "x" }] }
`;

/** An in-memory stand-in for the webhook inbox, in the shape app.ts passes. */
function fakeWebhooks(deliveries: WebhookDeliveryView[]): WebhookInboxView & { woken: number } {
  const view = {
    woken: 0,
    webhooks: [{ name: 'shop', verification: 'stripe' }],
    intake: { stats: () => [{ webhook: 'shop', received: 3, duplicates: 1, rejected: 2, last_received_at: '2030-01-01T00:00:09.000Z' }] },
    worker: { stats: () => [{ group: 'shop', runs_started: 2 }], wake: () => void (view.woken += 1) },
    store: {
      list: async ({ status, limit = 50, offset = 0 }: { status?: string; limit?: number; offset?: number }) => deliveries.filter((item) => !status || item.status === status).slice(offset, offset + limit),
      get: async (id: string) => deliveries.find((item) => item.delivery_id === id),
      retry: async (id: string) => {
        const found = deliveries.find((item) => item.delivery_id === id && item.status === 'failed');
        if (found) found.status = 'pending';
        return found;
      },
      countByStatus: async () => ({ pending: 0, processing: 0, done: 0, failed: deliveries.filter((item) => item.status === 'failed').length, ignored: 0 }),
    },
  };
  return view;
}

const delivery = (second: number, status: WebhookDeliveryView['status']): WebhookDeliveryView => ({ delivery_id: `del_${second}`, webhook: 'shop', event: 'shop.x', status, attempts: 1, last_error: null, received_at: `2030-01-01T00:00:0${second}.000Z`, finished_at: null, run_ids: [] });

let harness: TriggerHarness;
let webhooks: ReturnType<typeof fakeWebhooks>;
beforeEach(async () => {
  webhooks = fakeWebhooks([delivery(8, 'failed'), delivery(6, 'done'), delivery(4, 'failed')]);
  harness = await startTriggerHarness(YAML, { triggers: { webhooks } });
  // Trigger events received at :05 and :07, between the webhook deliveries.
  for (const extra of [0, 2_000]) {
    const at = new Date(Date.parse('2030-01-01T00:00:05.000Z') + extra).toISOString();
    await harness.store.insert({ event_id: `evt_${extra}`, trigger_kind: 'listener', trigger_name: 'feed', event: 'e', dedupe_key: null, payload: '{}', status: 'pending', received_at: at });
  }
});
afterEach(() => harness.close());

it('merges webhook deliveries and trigger events newest first, paging over both', async () => {
  const ids = async (query: { limit: number; offset: number; status?: 'failed'; kind?: 'webhook' | 'listener' }) => (await harness.triggers.operations.listDeliveries(query)).map((item) => item.id);
  expect(await ids({ limit: 10, offset: 0 })).toEqual(['del_8', 'evt_2000', 'del_6', 'evt_0', 'del_4']);
  expect(await ids({ limit: 2, offset: 1 })).toEqual(['evt_2000', 'del_6']);
  expect(await ids({ limit: 10, offset: 0, status: 'failed' })).toEqual(['del_8', 'del_4']);
  expect(await ids({ limit: 10, offset: 0, kind: 'listener' })).toEqual(['evt_2000', 'evt_0']);
});

it('lists webhooks from the intake stats, and retries webhook deliveries through their own inbox', async () => {
  const [shop] = await harness.triggers.operations.listTriggers();
  expect(shop).toEqual({ kind: 'webhook', name: 'shop', source: 'stripe', state: 'connected', last_error: null, next_attempt_at: null, counts: { received: 3, duplicates: 1, rejected: 2, runs_started: 2, failed: 2 }, last_event_at: '2030-01-01T00:00:09.000Z' });
  expect(await harness.triggers.operations.retry('del_8')).toMatchObject({ id: 'del_8', kind: 'webhook', status: 'pending' });
  expect(webhooks.woken).toBe(1);
  await expect(harness.triggers.operations.retry('del_6')).rejects.toMatchObject({ status: 409, code: 'delivery_not_failed' });
  await expect(harness.triggers.operations.retry('del_missing')).rejects.toMatchObject({ status: 404 });
});
