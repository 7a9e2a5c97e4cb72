import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookHarness, type WebhookHarness } from './webhook-harness.js';
import { githubSignature, hmacHex, slackHeaders } from './signing.js';

const YAML = `
webhook_settings:
  path_prefix: /hooks
  body_limit_bytes: 4096
webhooks:
  - name: generic
    verification: hmac-sha256
    secret: generic-hook-secret
    handlers:
      - { event: generic.order.*, agent: billing, prompt: "order {{id}}" }
      - { event: generic.order.created, agent: triage, prompt: "new order {{id}}" }
      - { event: generic.unknown, agent: triage, prompt: "untyped {{id}}" }
  - name: github
    verification: github
    secret: github-hook-secret
    handlers:
      - { event: github.push, agent: triage, prompt: "push to {{ref}}" }
  - name: slack
    verification: slack
    secret: slack-signing-secret
`;

let harness: WebhookHarness;
beforeAll(async () => {
  harness = await startWebhookHarness(YAML);
});
afterAll(() => harness.close());

const signed = (body: string) => ({ 'x-signature': hmacHex(body, 'generic-hook-secret') });

describe('statuses', () => {
  it('answers 404 for an unknown webhook name, before reading the body', async () => {
    const response = await harness.post('nope', 'x'.repeat(10_000), signed('x'));
    expect(response).toEqual({
      status: 404,
      body: { error: { type: 'not_found_error', code: 'webhook_not_found', message: 'No webhook named "nope"' } },
    });
  });

  it('mounts under the configured path prefix only', async () => {
    // With credentials, because unknown routes are not public.
    const response = await fetch(`${harness.url}/webhooks/generic`, {
      method: 'POST',
      body: '{}',
      headers: { ...signed('{}'), 'x-api-key': 'webhook-test-api-key' },
    });
    expect(response.status).toBe(404);
  });

  it('answers 413 for a body over the limit and stores nothing', async () => {
    const body = JSON.stringify({ type: 'order.created', padding: 'x'.repeat(5000) });
    const response = await harness.post('generic', body, signed(body));
    expect(response).toMatchObject({
      status: 413,
      body: { error: { type: 'payload_too_large_error', code: 'payload_too_large' } },
    });
    expect(await harness.store.list({ kind: 'webhook', name: 'generic' })).toEqual([]);
  });

  it('answers 400 for a verified body that is not JSON, or not a JSON object, and stores nothing', async () => {
    for (const [body, code] of [
      ['{"type": "order.created",', 'invalid_json'],
      ['[1, 2]', 'invalid_payload'],
      ['', 'invalid_json'],
    ]) {
      const response = await harness.post('generic', body, signed(body));
      expect(response).toMatchObject({ status: 400, body: { error: { type: 'invalid_request_error', code } } });
    }
    expect(await harness.store.list({ kind: 'webhook', name: 'generic' })).toEqual([]);
  });

  it('checks the signature before the JSON: an unsigned malformed body gets 401', async () => {
    const response = await harness.post('generic', '{not json', {
      'x-signature': hmacHex('other', 'generic-hook-secret'),
    });
    expect(response.status).toBe(401);
  });

  it('accepts bodies whatever their content type, and without one', async () => {
    const body = JSON.stringify({ type: 'order.paid', id: 'o-ct' });
    expect((await harness.post('generic', body, { ...signed(body), 'content-type': 'text/plain' })).status).toBe(202);
    const response = await fetch(`${harness.url}/hooks/generic`, {
      method: 'POST',
      body: new Blob([JSON.stringify({ type: 'order.paid', id: 'o-none' })]),
      headers: signed(JSON.stringify({ type: 'order.paid', id: 'o-none' })),
    });
    expect(response.status).toBe(202);
  });
});

describe('slack url_verification', () => {
  it('answers a signed challenge with 200 and stores nothing', async () => {
    const body = JSON.stringify({
      token: 'legacy',
      challenge: 'challenge-3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P',
      type: 'url_verification',
    });
    const response = await harness.post(
      'slack',
      body,
      slackHeaders(body, 'slack-signing-secret', harness.clock.seconds()),
    );
    expect(response).toEqual({
      status: 200,
      body: { challenge: 'challenge-3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P' },
    });
    expect(await harness.store.list({ kind: 'webhook', name: 'slack' })).toEqual([]);
  });

  it('rejects an unsigned challenge', async () => {
    const body = JSON.stringify({ challenge: 'c', type: 'url_verification' });
    expect((await harness.post('slack', body, slackHeaders(body, 'wrong', harness.clock.seconds()))).status).toBe(401);
  });
});

describe('event names and handlers', () => {
  async function deliver(body: Record<string, unknown>, headers: Record<string, string> = {}) {
    const text = JSON.stringify(body);
    const response = await harness.post('generic', text, { ...signed(text), ...headers });
    expect(response.status).toBe(202);
    return response.body as { delivery_id: string; event: string };
  }

  const runsOf = (deliveryId: string) =>
    harness.runs.calls
      .filter((call) => call.metadata.item_id === deliveryId)
      .map((call) => [call.agentName, call.prompt]);

  it('runs every handler that matches, exactly or by a trailing .* wildcard', async () => {
    const { delivery_id, event } = await deliver({ type: 'order.created', id: 'o-1' });
    expect(event).toBe('generic.order.created');
    await harness.worker.processDue();
    expect(runsOf(delivery_id).sort()).toEqual([
      ['billing', 'order o-1'],
      ['triage', 'new order o-1'],
    ]);
  });

  it('takes the event type only from the signed body: an unsigned X-Event-Type that says otherwise is refused', async () => {
    expect((await deliver({ type: 'order.paid', id: 'o-2' }, { 'x-event-type': 'order.paid' })).event).toBe(
      'generic.order.paid',
    );
    for (const [body, header] of [
      [{ id: 'o-2' }, 'order.refunded'],
      [{ type: 'order.created', id: 'o-2' }, 'order.refunded'],
    ] as const) {
      const text = JSON.stringify(body);
      const response = await harness.post('generic', text, { ...signed(text), 'x-event-type': header });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        error: {
          code: 'invalid_request',
          message: expect.stringMatching(/X-Event-Type is not covered by the hmac-sha256 signature/),
        },
      });
    }
  });

  it('names a payload without a type unknown', async () => {
    const untyped = await deliver({ id: 'o-3' });
    expect(untyped.event).toBe('generic.unknown');
    await harness.worker.processDue();
    expect(runsOf(untyped.delivery_id)).toEqual([['triage', 'untyped o-3']]);
  });

  it('keeps a delivery that no handler matches as ignored, without a run', async () => {
    const { delivery_id, event } = await deliver({ type: 'customer.created', id: 'c-1' });
    expect(event).toBe('generic.customer.created');
    await harness.worker.processDue();
    expect(runsOf(delivery_id)).toEqual([]);
    expect(await harness.store.get(delivery_id)).toMatchObject({ status: 'ignored', attempts: 0 });
  });

  it('names a github event without an action after the header alone, and reads form-encoded bodies', async () => {
    const json = JSON.stringify({ ref: 'refs/heads/main' });
    const body = new URLSearchParams({ payload: json }).toString();
    const response = await harness.post('github', body, {
      'content-type': 'application/x-www-form-urlencoded',
      'x-github-event': 'push',
      'x-github-delivery': 'd-form',
      'x-hub-signature-256': await githubSignature(body, 'github-hook-secret'),
    });
    expect(response).toMatchObject({ status: 202, body: { event: 'github.push' } });
    await harness.worker.processDue();
    expect(runsOf(response.body.delivery_id as string)).toEqual([['triage', 'push to refs/heads/main']]);
    expect(await harness.store.get(response.body.delivery_id as string)).toMatchObject({
      payload: { ref: 'refs/heads/main' },
      headers: { 'x-github-event': 'push', 'x-github-delivery': 'd-form' },
    });
  });

  it('names a slack envelope that is not an event callback after its type', async () => {
    const body = JSON.stringify({ type: 'app_rate_limited', minute_rate_limited: 1 });
    const response = await harness.post(
      'slack',
      body,
      slackHeaders(body, 'slack-signing-secret', harness.clock.seconds()),
    );
    expect(response).toMatchObject({ status: 202, body: { event: 'slack.app_rate_limited' } });
  });
});
