import type { WebhookVerification } from '../../../config/index.js';
import type { WebhookPayload } from './parse-webhook-payload.js';
import { headerValue, type SignedRequest } from './verification.types.js';

/** Used when a payload names no event type, so such deliveries can still be matched (`<name>.unknown` or `<name>.*`). */
export const UNKNOWN_EVENT_TYPE = 'unknown';

/** The delivery's event name, `<webhook>.<event type>`, read where each provider puts the type. */
export function resolveEventName(
  webhook: { name: string; verification: WebhookVerification },
  payload: WebhookPayload,
  request: SignedRequest,
): string {
  return `${webhook.name}.${resolveEventType(webhook.verification, payload, request) ?? UNKNOWN_EVENT_TYPE}`;
}

function resolveEventType(
  verification: WebhookVerification,
  payload: WebhookPayload,
  request: SignedRequest,
): string | undefined {
  switch (verification) {
    case 'stripe':
      return text(payload.type);
    case 'github': {
      const event = headerValue(request, 'x-github-event');
      const action = text(payload.action);
      return event && action ? `${event}.${action}` : event;
    }
    case 'slack': {
      const inner = payload.event as Record<string, unknown> | undefined;
      return payload.type === 'event_callback' && typeof inner === 'object' && inner !== null
        ? text(inner.type)
        : text(payload.type);
    }
    case 'hmac-sha256':
      return text(payload.type) ?? headerValue(request, 'x-event-type');
    case 'standard-webhooks':
      // The specification's payload is `{ type, timestamp, data }`.
      return text(payload.type);
    default: {
      const unhandled: never = verification;
      return unhandled;
    }
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
