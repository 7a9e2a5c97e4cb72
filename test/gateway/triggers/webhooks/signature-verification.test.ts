import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookHarness, type WebhookHarness } from './webhook-harness.js';
import {
  githubSignature,
  hmacHex,
  hmacTimestampHex,
  slackHeaders,
  standardWebhookHeaders,
  stripeSignature,
} from './signing.js';

// Standard Webhooks secrets as senders issue them: `whsec_` plus the base64 of the key bytes.
const SW_OLD = `whsec_${Buffer.from('standard-webhooks-old-key-0123456').toString('base64')}`;
const SW_NEW = `whsec_${Buffer.from('standard-webhooks-new-key-6543210').toString('base64')}`;

const YAML = `
webhooks:
  - name: stripe
    verification: stripe
    secrets: [whsec_old_secret, whsec_new_secret]
    handlers:
      - { event: stripe.invoice.paid, agent: billing, prompt: "Invoice {{data.object.id}} paid by {{data.object.customer}}{{data.object.missing}}." }
  - name: github
    verification: github
    secret: github-hook-secret
    handlers:
      - { event: github.issues.*, agent: triage, prompt: "Triage #{{issue.number}}: {{issue.title}}" }
  - name: slack
    verification: slack
    secret: slack-signing-secret
    handlers:
      - { event: slack.app_mention, agent: triage, prompt: "Mentioned: {{event.text}}" }
  - name: generic
    verification: hmac-sha256
    secret: generic-hook-secret
    handlers:
      - { event: generic.*, agent: billing, prompt: "{{type}} <{{note}}>" }
  - name: custom
    verification: hmac-sha256
    secret: custom-hook-secret
    signature_header: X-Custom-Signature
    handlers:
      - { event: "*", agent: billing, prompt: "custom" }
  - name: sw
    verification: standard-webhooks
    secrets: ["${SW_OLD}", "${SW_NEW}"]
    handlers:
      - { event: sw.invoice.paid, agent: billing, prompt: "Standard {{data.invoice}}" }
  - name: swraw
    verification: standard-webhooks
    secret: a-shared-secret-that-is-not-base64!
    handlers:
      - { event: "*", agent: billing, prompt: "raw" }
  - name: stamped
    verification: hmac-sha256
    secret: stamped-hook-secret
    timestamp_header: X-Webhook-Timestamp
    handlers:
      - { event: "*", agent: billing, prompt: "stamped {{n}}" }
`;

let harness: WebhookHarness;
let sequence = 0;
beforeAll(async () => {
  harness = await startWebhookHarness(YAML);
});
afterAll(() => harness.close());

const stripeEvent = (type = 'invoice.paid') =>
  JSON.stringify({ id: `evt_${++sequence}`, type, data: { object: { id: `in_${sequence}`, customer: 'cus_42' } } });
const githubEvent = () => JSON.stringify({ action: 'opened', issue: { number: ++sequence, title: 'Crash on start' } });
const slackEvent = () =>
  JSON.stringify({
    type: 'event_callback',
    event_id: `Ev${++sequence}`,
    event: { type: 'app_mention', text: 'hello <@bot>' },
  });
const standardEvent = () =>
  JSON.stringify({ type: 'invoice.paid', timestamp: '2030-01-01T00:00:00Z', data: { invoice: `inv_${++sequence}` } });
const stampedEvent = () => JSON.stringify({ n: ++sequence });
const genericEvent = () => JSON.stringify({ type: 'order.created', note: `a&b ${++sequence}` });

async function expectAccepted(
  name: string,
  body: string,
  headers: Record<string, string>,
  event: string,
): Promise<string> {
  const response = await harness.post(name, body, headers);
  expect(response).toMatchObject({ status: 202, body: { event, duplicate: false } });
  expect(response.body.delivery_id).toMatch(/^del_[0-9a-f]{24}$/);
  return response.body.delivery_id as string;
}

/** Handles every due delivery and returns the run request made for this one. */
async function runFor(deliveryId: string) {
  await harness.worker.processDue();
  return harness.runs.calls.find((call) => call.metadata.item_id === deliveryId);
}

/** 401 in our error shape, and nothing stored for the webhook. */
async function expectRejected(name: string, body: string, headers: Record<string, string>): Promise<void> {
  const before = (await harness.store.list({ kind: 'webhook', name: name })).length;
  const response = await harness.post(name, body, headers);
  expect(response).toMatchObject({
    status: 401,
    body: { error: { type: 'authentication_error', code: 'invalid_signature' } },
  });
  expect(await harness.store.list({ kind: 'webhook', name: name })).toHaveLength(before);
}

describe('stripe verification', () => {
  it('accepts a delivery signed by the stripe library and runs the handler with the rendered prompt', async () => {
    const body = stripeEvent();
    const id = await expectAccepted(
      'stripe',
      body,
      { 'stripe-signature': stripeSignature(body, 'whsec_new_secret', harness.clock.seconds()) },
      'stripe.invoice.paid',
    );
    expect(await runFor(id)).toEqual({
      agentName: 'billing',
      prompt: `Invoice in_${sequence} paid by cus_42.`,
      source: 'webhook',
      metadata: { item_id: id, event: 'stripe.invoice.paid', source: 'webhook:stripe' },
      // Telemetry is off here: no intake trace to link the run to.
      traceparent: null,
    });
    expect(await harness.store.get(id)).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('accepts either secret while one is rotated, and any matching v1 of several', async () => {
    const old = stripeEvent();
    await expectAccepted(
      'stripe',
      old,
      { 'stripe-signature': stripeSignature(old, 'whsec_old_secret', harness.clock.seconds()) },
      'stripe.invoice.paid',
    );
    const both = stripeEvent();
    const valid = stripeSignature(both, 'whsec_new_secret', harness.clock.seconds());
    const v1 = valid.split('v1=')[1];
    await expectAccepted(
      'stripe',
      both,
      { 'stripe-signature': `t=${harness.clock.seconds()},v1=${'0'.repeat(64)},v1=${v1}` },
      'stripe.invoice.paid',
    );
  });

  it('accepts a timestamp just inside the tolerance', async () => {
    const body = stripeEvent();
    await expectAccepted(
      'stripe',
      body,
      { 'stripe-signature': stripeSignature(body, 'whsec_new_secret', harness.clock.seconds() - 299) },
      'stripe.invoice.paid',
    );
  });

  it.each([
    [
      'a wrong secret',
      (body: string, now: number) => ({
        body,
        headers: { 'stripe-signature': stripeSignature(body, 'whsec_wrong', now) },
      }),
    ],
    [
      'a tampered body',
      (body: string, now: number) => ({
        body: body.replace('cus_42', 'cus_666'),
        headers: { 'stripe-signature': stripeSignature(body, 'whsec_new_secret', now) },
      }),
    ],
    [
      'a stale timestamp',
      (body: string, now: number) => ({
        body,
        headers: { 'stripe-signature': stripeSignature(body, 'whsec_new_secret', now - 301) },
      }),
    ],
    [
      'a timestamp too far ahead',
      (body: string, now: number) => ({
        body,
        headers: { 'stripe-signature': stripeSignature(body, 'whsec_new_secret', now + 301) },
      }),
    ],
    ['no signature header', (body: string) => ({ body, headers: {} })],
    [
      'the signature under another header',
      (body: string, now: number) => ({
        body,
        headers: { 'x-signature': stripeSignature(body, 'whsec_new_secret', now) },
      }),
    ],
    ['a header without v1', (body: string, now: number) => ({ body, headers: { 'stripe-signature': `t=${now}` } })],
    [
      'a v0 signature only',
      (body: string, now: number) => ({
        body,
        headers: { 'stripe-signature': stripeSignature(body, 'whsec_new_secret', now).replace('v1=', 'v0=') },
      }),
    ],
  ])('rejects %s with 401 and stores nothing', async (_case, make) => {
    const { body, headers } = make(stripeEvent(), harness.clock.seconds());
    await expectRejected('stripe', body, headers);
  });
});

describe('github verification', () => {
  it('accepts a delivery signed by @octokit/webhooks-methods; the event is X-GitHub-Event plus the action', async () => {
    const body = githubEvent();
    const id = await expectAccepted(
      'github',
      body,
      {
        'x-hub-signature-256': await githubSignature(body, 'github-hook-secret'),
        'x-github-event': 'issues',
        'x-github-delivery': `gh-${sequence}`,
      },
      'github.issues.opened',
    );
    expect(await runFor(id)).toMatchObject({ agentName: 'triage', prompt: `Triage #${sequence}: Crash on start` });
  });

  it.each([
    [
      'a wrong secret',
      async (body: string) => ({
        body,
        headers: { 'x-hub-signature-256': await githubSignature(body, 'not-the-secret') },
      }),
    ],
    [
      'a tampered body',
      async (body: string) => ({
        body: body.replace('Crash', 'Hang'),
        headers: { 'x-hub-signature-256': await githubSignature(body, 'github-hook-secret') },
      }),
    ],
    ['no signature header', async (body: string) => ({ body, headers: {} })],
    [
      'the legacy SHA-1 header name',
      async (body: string) => ({
        body,
        headers: { 'x-hub-signature': await githubSignature(body, 'github-hook-secret') },
      }),
    ],
    [
      'a signature without the sha256= prefix',
      async (body: string) => ({
        body,
        headers: { 'x-hub-signature-256': (await githubSignature(body, 'github-hook-secret')).slice(7) },
      }),
    ],
  ])('rejects %s with 401 and stores nothing', async (_case, make) => {
    const { body, headers } = await make(githubEvent());
    await expectRejected('github', body, { 'x-github-event': 'issues', ...headers });
  });
});

describe('slack verification', () => {
  it('accepts a signed event callback; the event is the inner event type', async () => {
    const body = slackEvent();
    const id = await expectAccepted(
      'slack',
      body,
      slackHeaders(body, 'slack-signing-secret', harness.clock.seconds()),
      'slack.app_mention',
    );
    expect(await runFor(id)).toMatchObject({ agentName: 'triage', prompt: 'Mentioned: hello <@bot>' });
  });

  it.each([
    ['a wrong secret', (body: string, now: number) => ({ body, headers: slackHeaders(body, 'wrong-secret', now) })],
    [
      'a tampered body',
      (body: string, now: number) => ({
        body: body.replace('hello', 'bye'),
        headers: slackHeaders(body, 'slack-signing-secret', now),
      }),
    ],
    [
      'a stale timestamp',
      (body: string, now: number) => ({ body, headers: slackHeaders(body, 'slack-signing-secret', now - 301) }),
    ],
    [
      'a timestamp header that differs from the signed one',
      (body: string, now: number) => ({
        body,
        headers: { ...slackHeaders(body, 'slack-signing-secret', now), 'x-slack-request-timestamp': String(now - 1) },
      }),
    ],
    [
      'no timestamp header',
      (body: string, now: number) => ({
        body,
        headers: { 'x-slack-signature': slackHeaders(body, 'slack-signing-secret', now)['x-slack-signature'] },
      }),
    ],
    [
      'no signature header',
      (body: string, now: number) => ({ body, headers: { 'x-slack-request-timestamp': String(now) } }),
    ],
  ])('rejects %s with 401 and stores nothing', async (_case, make) => {
    const { body, headers } = make(slackEvent(), harness.clock.seconds());
    await expectRejected('slack', body, headers);
  });
});

describe('hmac-sha256 verification', () => {
  it('accepts bare hex, a sha256= prefix and upper-case hex in X-Signature; prompts are not HTML-escaped', async () => {
    let id = '';
    for (const format of [(hex: string) => hex, (hex: string) => `sha256=${hex}`, (hex: string) => hex.toUpperCase()]) {
      const body = genericEvent();
      id = await expectAccepted(
        'generic',
        body,
        { 'x-signature': format(hmacHex(body, 'generic-hook-secret')) },
        'generic.order.created',
      );
    }
    expect((await runFor(id))?.prompt).toBe(`order.created <a&b ${sequence}>`);
  });

  it('reads the signature from signature_header when one is configured', async () => {
    const body = genericEvent();
    await expectAccepted(
      'custom',
      body,
      { 'x-custom-signature': hmacHex(body, 'custom-hook-secret') },
      'custom.order.created',
    );
    await expectRejected('custom', body, { 'x-signature': hmacHex(body, 'custom-hook-secret') });
  });

  it.each([
    ['a wrong secret', (body: string) => ({ body, headers: { 'x-signature': hmacHex(body, 'wrong') } })],
    [
      'a tampered body',
      (body: string) => ({ body: `${body} `, headers: { 'x-signature': hmacHex(body, 'generic-hook-secret') } }),
    ],
    ['no signature header', (body: string) => ({ body, headers: {} })],
    [
      'a truncated signature',
      (body: string) => ({ body, headers: { 'x-signature': hmacHex(body, 'generic-hook-secret').slice(0, 63) } }),
    ],
    [
      'a signature with non-hex digits',
      (body: string) => ({
        body,
        headers: { 'x-signature': `${hmacHex(body, 'generic-hook-secret').slice(0, 62)}zz` },
      }),
    ],
  ])('rejects %s with 401 and stores nothing', async (_case, make) => {
    const { body, headers } = make(genericEvent());
    await expectRejected('generic', body, headers);
  });
});

describe('standard-webhooks verification', () => {
  it('accepts a delivery signed by the standardwebhooks library and runs the handler', async () => {
    const body = standardEvent();
    const id = await expectAccepted(
      'sw',
      body,
      standardWebhookHeaders(body, SW_NEW, `msg_${sequence}`, harness.clock.seconds()),
      'sw.invoice.paid',
    );
    expect(await runFor(id)).toMatchObject({ agentName: 'billing', prompt: `Standard inv_${sequence}` });
    const { headers } = (await harness.store.get(id))!;
    expect(headers).toMatchObject({
      'webhook-id': `msg_${sequence}`,
      'webhook-timestamp': String(harness.clock.seconds()),
    });
    expect(headers).not.toHaveProperty('webhook-signature');
  });

  it('accepts either secret while one is rotated, and any v1 entry of several; other versions are skipped', async () => {
    const old = standardEvent();
    await expectAccepted(
      'sw',
      old,
      standardWebhookHeaders(old, SW_OLD, `msg_${sequence}`, harness.clock.seconds()),
      'sw.invoice.paid',
    );
    const both = standardEvent();
    const id = `msg_${sequence}`;
    const valid = standardWebhookHeaders(both, SW_NEW, id, harness.clock.seconds());
    const other = standardWebhookHeaders(
      both,
      `whsec_${Buffer.from('not-a-configured-key').toString('base64')}`,
      id,
      harness.clock.seconds(),
    );
    const signature = `v1a,${'A'.repeat(86)}== ${other['webhook-signature']} ${valid['webhook-signature']}`;
    await expectAccepted('sw', both, { ...valid, 'webhook-signature': signature }, 'sw.invoice.paid');
  });

  it('uses a secret without the whsec_ prefix as its raw bytes, as the library does with format "raw"', async () => {
    const body = standardEvent();
    await expectAccepted(
      'swraw',
      body,
      standardWebhookHeaders(body, 'a-shared-secret-that-is-not-base64!', `msg_${sequence}`, harness.clock.seconds(), {
        raw: true,
      }),
      'swraw.invoice.paid',
    );
  });

  it('accepts a timestamp just inside the tolerance', async () => {
    const body = standardEvent();
    await expectAccepted(
      'sw',
      body,
      standardWebhookHeaders(body, SW_NEW, `msg_${sequence}`, harness.clock.seconds() - 300),
      'sw.invoice.paid',
    );
  });

  it.each([
    [
      'a wrong secret',
      (body: string, now: number) => ({
        body,
        headers: standardWebhookHeaders(body, `whsec_${Buffer.from('wrong-key').toString('base64')}`, 'msg_x', now),
      }),
    ],
    [
      'the whsec_ secret used as raw bytes',
      (body: string, now: number) => ({
        body,
        headers: standardWebhookHeaders(body, SW_NEW, 'msg_x', now, { raw: true }),
      }),
    ],
    [
      'a tampered body',
      (body: string, now: number) => ({
        body: body.replace('invoice.paid', 'invoice.void'),
        headers: standardWebhookHeaders(body, SW_NEW, 'msg_x', now),
      }),
    ],
    [
      'a webhook-id other than the signed one',
      (body: string, now: number) => ({
        body,
        headers: { ...standardWebhookHeaders(body, SW_NEW, 'msg_x', now), 'webhook-id': 'msg_y' },
      }),
    ],
    [
      'a webhook-timestamp other than the signed one',
      (body: string, now: number) => ({
        body,
        headers: { ...standardWebhookHeaders(body, SW_NEW, 'msg_x', now), 'webhook-timestamp': String(now - 1) },
      }),
    ],
    [
      'a stale timestamp',
      (body: string, now: number) => ({ body, headers: standardWebhookHeaders(body, SW_NEW, 'msg_x', now - 301) }),
    ],
    [
      'a timestamp too far ahead',
      (body: string, now: number) => ({ body, headers: standardWebhookHeaders(body, SW_NEW, 'msg_x', now + 301) }),
    ],
    [
      'no webhook-id',
      (body: string, now: number) => ({
        body,
        headers: { ...standardWebhookHeaders(body, SW_NEW, 'msg_x', now), 'webhook-id': '' },
      }),
    ],
    [
      'no webhook-timestamp',
      (body: string, now: number) => ({
        body,
        headers: { ...standardWebhookHeaders(body, SW_NEW, 'msg_x', now), 'webhook-timestamp': '' },
      }),
    ],
    [
      'no signature header',
      (body: string, now: number) => ({ body, headers: { 'webhook-id': 'msg_x', 'webhook-timestamp': String(now) } }),
    ],
    [
      'a valid signature under another version',
      (body: string, now: number) => {
        const headers = standardWebhookHeaders(body, SW_NEW, 'msg_x', now);
        return {
          body,
          headers: { ...headers, 'webhook-signature': headers['webhook-signature'].replace('v1,', 'v2,') },
        };
      },
    ],
  ])('rejects %s with 401 and stores nothing', async (_case, make) => {
    const { body, headers } = make(standardEvent(), harness.clock.seconds());
    await expectRejected('sw', body, headers);
  });
});

describe('hmac-sha256 verification with timestamp_header', () => {
  const stamped = (body: string, timestamp: number) => ({
    'x-webhook-timestamp': String(timestamp),
    'x-signature': hmacTimestampHex(body, 'stamped-hook-secret', timestamp),
  });

  it('accepts a fresh timestamp signed with the body, and one just inside the tolerance', async () => {
    const body = stampedEvent();
    const id = await expectAccepted('stamped', body, stamped(body, harness.clock.seconds()), 'stamped.unknown');
    expect(await runFor(id)).toMatchObject({ prompt: `stamped ${sequence}` });
    const older = stampedEvent();
    await expectAccepted('stamped', older, stamped(older, harness.clock.seconds() - 300), 'stamped.unknown');
  });

  it.each([
    ['a stale timestamp', (body: string, now: number) => ({ body, headers: stamped(body, now - 301) })],
    ['a timestamp too far ahead', (body: string, now: number) => ({ body, headers: stamped(body, now + 301) })],
    [
      'a timestamp header other than the signed one',
      (body: string, now: number) => ({
        body,
        headers: { ...stamped(body, now - 10), 'x-webhook-timestamp': String(now) },
      }),
    ],
    [
      'no timestamp header (a signature of the body alone)',
      (body: string) => ({ body, headers: { 'x-signature': hmacHex(body, 'stamped-hook-secret') } }),
    ],
    [
      'a signature of the body alone, with a timestamp header',
      (body: string, now: number) => ({
        body,
        headers: { 'x-webhook-timestamp': String(now), 'x-signature': hmacHex(body, 'stamped-hook-secret') },
      }),
    ],
    ['a tampered body', (body: string, now: number) => ({ body: `${body} `, headers: stamped(body, now) })],
    [
      'a wrong secret',
      (body: string, now: number) => ({
        body,
        headers: { 'x-webhook-timestamp': String(now), 'x-signature': hmacTimestampHex(body, 'wrong', now) },
      }),
    ],
  ])('rejects %s with 401 and stores nothing', async (_case, make) => {
    const { body, headers } = make(stampedEvent(), harness.clock.seconds());
    await expectRejected('stamped', body, headers);
  });
});

it('runs start only for stored deliveries, and no secret reaches the logs', async () => {
  await harness.worker.processDue();
  const stored = await harness.store.list({ limit: 1000 });
  expect(stored.every((delivery) => delivery.status === 'done')).toBe(true);
  expect(harness.runs.calls.map((call) => call.metadata.item_id).sort()).toEqual(
    stored.map((delivery) => delivery.item_id).sort(),
  );
  expect(
    harness.logger.entries.some(
      (entry) =>
        entry.message === 'webhook signature verification failed' &&
        entry.object.reason === 'timestamp outside the tolerance',
    ),
  ).toBe(true);
  for (const secret of [
    'whsec_old_secret',
    'whsec_new_secret',
    'github-hook-secret',
    'slack-signing-secret',
    'generic-hook-secret',
    SW_OLD,
    SW_NEW,
    'stamped-hook-secret',
  ])
    expect(harness.logger.text).not.toContain(secret);
});
