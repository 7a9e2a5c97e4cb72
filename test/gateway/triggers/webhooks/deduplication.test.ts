import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWebhookHarness, type WebhookHarness } from './webhook-harness.js';
import {
  githubSignature,
  hmacHex,
  hmacTimestampHex,
  slackHeaders,
  standardWebhookHeaders,
  stripeSignature,
} from './signing.js';

const SW_SECRET = `whsec_${Buffer.from('standard-webhooks-dedupe-key').toString('base64')}`;

const YAML = `
webhooks:
  - { name: stripe, verification: stripe, secret: whsec_dedupe, handlers: [{ event: "*", agent: billing, prompt: "{{id}}" }] }
  - { name: github, verification: github, secret: gh-dedupe, handlers: [{ event: "*", agent: triage, prompt: "{{n}}" }] }
  - { name: slack, verification: slack, secret: slack-dedupe, handlers: [{ event: "*", agent: triage, prompt: "{{event_id}}" }] }
  - { name: generic, verification: hmac-sha256, secret: generic-dedupe, handlers: [{ event: "*", agent: billing, prompt: "{{n}}" }] }
  - { name: quiet, verification: hmac-sha256, secret: quiet-dedupe }
  - { name: sw, verification: standard-webhooks, secret: "${SW_SECRET}", handlers: [{ event: "*", agent: billing, prompt: "{{n}}" }] }
  - { name: stamped, verification: hmac-sha256, secret: stamped-dedupe, timestamp_header: X-Webhook-Timestamp, handlers: [{ event: "*", agent: billing, prompt: "{{n}}" }] }
`;

/** A fresh value on every call: what a replayer would put in an unsigned id header. */
let fresh = 0;
const next = (prefix: string) => `${prefix}-${++fresh}`;

let harness: WebhookHarness;
beforeAll(async () => {
  harness = await startWebhookHarness(YAML);
});
afterAll(() => harness.close());

/** Posts the same delivery twice (re-signed, as a sender's retry is) and returns both answers. */
async function postTwice(
  name: string,
  body: string,
  sign: () => Promise<Record<string, string>> | Record<string, string>,
) {
  const first = await harness.post(name, body, await sign());
  harness.clock.advance(30);
  const second = await harness.post(name, body, await sign());
  return [first, second];
}

async function runsOfDelivery(deliveryId: unknown): Promise<number> {
  await harness.worker.processDue();
  return harness.runs.calls.filter((call) => call.metadata.item_id === deliveryId).length;
}

it.each([
  [
    'stripe, by the event id in the signed body',
    'stripe',
    JSON.stringify({ id: 'evt_dup', type: 'invoice.paid' }),
    (body: string) => ({ 'stripe-signature': stripeSignature(body, 'whsec_dedupe', harness.clock.seconds()) }),
  ],
  [
    'slack, by the event_id in the signed body',
    'slack',
    JSON.stringify({ type: 'event_callback', event_id: 'Ev01', event: { type: 'message' } }),
    (body: string) => ({ ...slackHeaders(body, 'slack-dedupe', harness.clock.seconds()), 'x-slack-retry-num': '1' }),
  ],
  [
    'standard-webhooks, by the signed webhook-id (a retry re-signed with a new timestamp)',
    'sw',
    JSON.stringify({ n: 5 }),
    (body: string) => standardWebhookHeaders(body, SW_SECRET, 'msg_retry', harness.clock.seconds()),
  ],
  [
    'github replayed with a new X-GitHub-Delivery, by body hash',
    'github',
    JSON.stringify({ n: 1 }),
    async (body: string) => ({
      'x-github-event': 'push',
      'x-github-delivery': next('guid'),
      'x-hub-signature-256': await githubSignature(body, 'gh-dedupe'),
    }),
  ],
  [
    'hmac-sha256 replayed with a new X-Webhook-Id, by body hash',
    'generic',
    JSON.stringify({ n: 2 }),
    (body: string) => ({ 'x-webhook-id': next('wh'), 'x-signature': hmacHex(body, 'generic-dedupe') }),
  ],
  [
    'hmac-sha256 replayed with a new webhook-id, by body hash',
    'generic',
    JSON.stringify({ n: 3 }),
    (body: string) => ({ 'webhook-id': next('msg'), 'x-signature': hmacHex(body, 'generic-dedupe') }),
  ],
  [
    'hmac-sha256 without id headers, by body hash',
    'generic',
    JSON.stringify({ n: 4 }),
    (body: string) => ({ 'x-signature': hmacHex(body, 'generic-dedupe') }),
  ],
  [
    'hmac-sha256 with timestamp_header re-signed with a new timestamp, by body hash',
    'stamped',
    JSON.stringify({ n: 6 }),
    (body: string) => ({
      'x-webhook-timestamp': String(harness.clock.seconds()),
      'x-signature': hmacTimestampHex(body, 'stamped-dedupe', harness.clock.seconds()),
      'x-webhook-id': next('st'),
    }),
  ],
])('acknowledges a repeated delivery (%s) as a duplicate and runs it once', async (_case, name, body, sign) => {
  const [first, second] = await postTwice(name, body, () => sign(body));
  expect(first).toMatchObject({ status: 202, body: { duplicate: false } });
  expect(second).toEqual({ status: 202, body: { ...first.body, duplicate: true } });
  expect(await runsOfDelivery(first.body.delivery_id)).toBe(1);
  // Still a duplicate once handled.
  const third = await harness.post(name, body, await sign(body));
  expect(third.body).toEqual({ ...first.body, duplicate: true });
  expect(await runsOfDelivery(first.body.delivery_id)).toBe(1);
});

it('tells different events of one sender apart', async () => {
  const sign = (body: string) => ({
    'stripe-signature': stripeSignature(body, 'whsec_dedupe', harness.clock.seconds()),
  });
  const a = JSON.stringify({ id: 'evt_a', type: 'invoice.paid' });
  const b = JSON.stringify({ id: 'evt_b', type: 'invoice.paid' });
  const [first, second] = [await harness.post('stripe', a, sign(a)), await harness.post('stripe', b, sign(b))];
  expect([first.body.duplicate, second.body.duplicate]).toEqual([false, false]);
  expect(first.body.delivery_id).not.toBe(second.body.delivery_id);
});

it('acknowledges the very same standard-webhooks message sent again as a duplicate', async () => {
  const body = JSON.stringify({ n: 7 });
  const headers = standardWebhookHeaders(body, SW_SECRET, 'msg_same', harness.clock.seconds());
  const first = await harness.post('sw', body, headers);
  harness.clock.advance(60);
  const second = await harness.post('sw', body, headers);
  expect(first).toMatchObject({ status: 202, body: { duplicate: false } });
  expect(second).toEqual({ status: 202, body: { ...first.body, duplicate: true } });
  expect(await runsOfDelivery(first.body.delivery_id)).toBe(1);
  // Once past the tolerance the captured message is refused outright.
  harness.clock.advance(241);
  expect((await harness.post('sw', body, headers)).status).toBe(401);
});

it('tells standard-webhooks messages apart by webhook-id, even with identical bodies', async () => {
  const body = JSON.stringify({ n: 8 });
  const first = await harness.post(
    'sw',
    body,
    standardWebhookHeaders(body, SW_SECRET, 'msg_a', harness.clock.seconds()),
  );
  const second = await harness.post(
    'sw',
    body,
    standardWebhookHeaders(body, SW_SECRET, 'msg_b', harness.clock.seconds()),
  );
  expect([first.body.duplicate, second.body.duplicate]).toEqual([false, false]);
  expect(first.body.delivery_id).not.toBe(second.body.delivery_id);
});

it('stores one delivery when the same one arrives many times at once', async () => {
  const body = JSON.stringify({ n: 99 });
  const responses = await Promise.all(
    Array.from({ length: 6 }, () =>
      harness.post('generic', body, { 'x-webhook-id': next('burst'), 'x-signature': hmacHex(body, 'generic-dedupe') }),
    ),
  );
  expect(responses.every((response) => response.status === 202)).toBe(true);
  expect(responses.filter((response) => !response.body.duplicate)).toHaveLength(1);
  expect(new Set(responses.map((response) => response.body.delivery_id)).size).toBe(1);
  expect(await runsOfDelivery(responses[0].body.delivery_id)).toBe(1);
});

it('deduplicates deliveries that no handler matches too', async () => {
  const body = JSON.stringify({ type: 'anything' });
  const [first, second] = await postTwice('quiet', body, () => ({ 'x-signature': hmacHex(body, 'quiet-dedupe') }));
  expect(first.body).toMatchObject({ event: 'quiet.anything', duplicate: false });
  expect(second.body).toEqual({ ...first.body, duplicate: true });
});
