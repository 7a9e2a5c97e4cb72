import { createHmac } from 'node:crypto';
import { sign as signGithub } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';

// The client is only used for its signing helper; it never reaches the network.
const stripe = new Stripe('sk_test_webhook_signing_only');

/** A Stripe-Signature header made by Stripe's own library. */
export function stripeSignature(payload: string, secret: string, timestamp: number): string {
  return stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
}

/** X-Hub-Signature-256 as GitHub's own library makes it (`sha256=<hex>`). */
export function githubSignature(payload: string, secret: string): Promise<string> {
  return signGithub(secret, payload);
}

/**
 * Standard Webhooks headers made by the specification's reference library (`standardwebhooks`). A `whsec_`
 * secret is base64-decoded by it; `raw` signs with the secret's own bytes (its `format: "raw"`).
 */
export function standardWebhookHeaders(
  body: string,
  secret: string,
  id: string,
  timestamp: number,
  options: { raw?: boolean } = {},
): Record<string, string> {
  const webhook = new Webhook(secret, options.raw ? { format: 'raw' } : undefined);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': webhook.sign(id, new Date(timestamp * 1000), body),
  };
}

/** `hmac-sha256` with a timestamp header: the hex HMAC of `<timestamp>.<body>`. */
export function hmacTimestampHex(body: string, secret: string, timestamp: number): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** Slack's scheme, by hand: https://docs.slack.dev/authentication/verifying-requests-from-slack */
export function slackHeaders(body: string, secret: string, timestamp: number): Record<string, string> {
  const signature = createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex');
  return { 'x-slack-signature': `v0=${signature}`, 'x-slack-request-timestamp': String(timestamp) };
}

export function hmacHex(body: string | Buffer, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}
