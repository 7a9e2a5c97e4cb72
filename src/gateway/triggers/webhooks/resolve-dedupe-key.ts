import { createHash } from 'node:crypto';
import type { WebhookVerification } from '../../../config/index.js';
import type { WebhookPayload } from './parse-webhook-payload.js';
import { headerValue, type SignedRequest } from './verification.types.js';
import { STANDARD_WEBHOOK_ID_HEADER } from './verify-standard-webhook-signature.js';

/**
 * What identifies a delivery across the sender's retries, taken only from what the signature covers: an
 * unsigned header (`X-GitHub-Delivery`, `X-Webhook-Id`) would let anyone replay a captured delivery as a
 * new one by changing it. So: the event id in the signed body (Stripe `id`, Slack `event_id`), the signed
 * Standard Webhooks `webhook-id`, else the body's SHA-256. The prefixes keep keys of different origins apart.
 * Call it only after the request has been verified.
 */
export function resolveDedupeKey(
  verification: WebhookVerification,
  payload: WebhookPayload,
  request: SignedRequest,
): string {
  const eventId = signedEventId(verification, payload);
  if (eventId) return `id:${eventId}`;
  if (verification === 'standard-webhooks') {
    // Verification refuses a request without it, so it is always there.
    const messageId = headerValue(request, STANDARD_WEBHOOK_ID_HEADER);
    if (messageId) return `webhook-id:${messageId}`;
  }
  return `sha256:${createHash('sha256').update(request.body).digest('hex')}`;
}

function signedEventId(verification: WebhookVerification, payload: WebhookPayload): string | undefined {
  if (verification === 'stripe') return typeof payload.id === 'string' && payload.id !== '' ? payload.id : undefined;
  if (verification === 'slack')
    return typeof payload.event_id === 'string' && payload.event_id !== '' ? payload.event_id : undefined;
  return undefined;
}
