import { createHash } from 'node:crypto';
import type { WebhookVerification } from '../../../config/index.js';
import type { WebhookPayload } from './parse-webhook-payload.js';
import { headerValue, type SignedRequest } from './verification.types.js';

/**
 * What identifies a delivery across the sender's retries: the provider's event or delivery id, else a
 * generic delivery-id header (Standard Webhooks `webhook-id`, `X-Webhook-Id`), else the body's SHA-256.
 * The kind prefix keeps keys of different origins from colliding.
 */
export function resolveDedupeKey(verification: WebhookVerification, payload: WebhookPayload, request: SignedRequest): string {
  const providerId = providerDeliveryId(verification, payload, request);
  if (providerId) return `id:${providerId}`;
  const headerId = headerValue(request, 'webhook-id') ?? headerValue(request, 'x-webhook-id');
  if (headerId) return `header:${headerId}`;
  return `sha256:${createHash('sha256').update(request.body).digest('hex')}`;
}

function providerDeliveryId(verification: WebhookVerification, payload: WebhookPayload, request: SignedRequest): string | undefined {
  if (verification === 'stripe') return typeof payload.id === 'string' ? payload.id : undefined;
  if (verification === 'github') return headerValue(request, 'x-github-delivery');
  if (verification === 'slack') return typeof payload.event_id === 'string' ? payload.event_id : undefined;
  return undefined;
}
