import { DEFAULT_MAX_JSON_DEPTH } from '../../config/index.js';
import { exceedsJsonDepth } from '../../http/index.js';
import { readKey } from './read-path.js';

/** A message as a broker client hands it over, before parsing. */
export interface RawMessage {
  body: Buffer | Uint8Array | string;
  /** The broker's own id for the message (AMQP message-id, JetStream sequence, SSE id), when it has one. */
  messageId?: string;
  /** A type the transport names (the SSE `event:` field), used when the JSON has no event field. */
  eventType?: string;
  /** Header values that may carry the producer's trace context (`traceparent`, `tracestate`), where the broker has headers. */
  traceCarrier?: Record<string, string>;
}

export type DecodedMessage =
  { ok: true; payload: Record<string, unknown>; event: string; dedupeKey?: string } | { ok: false; reason: string };

/** Used when a message names no event type, so it can still be matched (`unknown` or `*`). */
export const UNKNOWN_EVENT_TYPE = 'unknown';

/** Parses a listener message: a JSON object whose `event_field` names the event; the id field or broker id dedupes it. */
export function decodeMessage(
  message: RawMessage,
  options: { event_field: string; id_field?: string; maxJsonDepth?: number },
): DecodedMessage {
  const text = typeof message.body === 'string' ? message.body : Buffer.from(message.body).toString('utf8');
  // The limit every HTTP body has: refused before JSON.parse, templates or the store walk it.
  const maxDepth = options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
  if (exceedsJsonDepth(text, maxDepth))
    return { ok: false, reason: `the message nests JSON deeper than server.max_json_depth (${maxDepth})` };
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'the message is not valid JSON' };
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    return { ok: false, reason: 'the message is not a JSON object' };
  const event =
    readKey(payload, options.event_field) ??
    (message.eventType && message.eventType !== 'message' ? message.eventType : UNKNOWN_EVENT_TYPE);
  // A configured id field is the publisher's statement of identity, so it wins over the transport's id.
  const id = options.id_field ? readKey(payload, options.id_field) : undefined;
  const dedupeKey =
    id !== undefined ? `id:${id}` : message.messageId !== undefined ? `msg:${message.messageId}` : undefined;
  return { ok: true, payload: payload as Record<string, unknown>, event, dedupeKey };
}
