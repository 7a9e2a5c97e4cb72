import type { WebhookVerification } from '../../../config/index.js';
import type { WebhookPayload } from './parse-webhook-payload.js';
import { ValidationError } from '../../../errors.js';
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
      // Only what is signed names the event: X-Event-Type is not (see checkUnsignedEventType).
      return text(payload.type);
    case 'standard-webhooks':
      // The specification's payload is `{ type, timestamp, data }`.
      return text(payload.type);
    default: {
      const unhandled: never = verification;
      return unhandled;
    }
  }
}

/**
 * An `hmac-sha256` signature covers the body only, so the `X-Event-Type` header could present a signed body as
 * another event. It is refused unless it says what the signed body's `type` says.
 */
export function checkUnsignedEventType(
  verification: WebhookVerification,
  payload: WebhookPayload,
  request: SignedRequest,
): void {
  const header = verification === 'hmac-sha256' ? headerValue(request, 'x-event-type') : undefined;
  if (header === undefined || header === text(payload.type)) return;
  throw new ValidationError(
    'X-Event-Type is not covered by the hmac-sha256 signature: send the event type as the signed body\'s "type" field (the header may only repeat it)',
  );
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
