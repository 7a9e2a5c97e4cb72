import { formatSSEErrorEvent } from '@a2a-js/sdk';
import { LEGACY_METHOD_MESSAGE_STREAM, LEGACY_METHOD_TASKS_RESUBSCRIBE } from '@a2a-js/sdk/compat/v0_3';
import type { FastifyReply } from 'fastify';

/** v0.3's streaming methods: a caller of these reads an SSE stream, whatever happens. */
const LEGACY_STREAMING_METHODS = new Set([LEGACY_METHOD_MESSAGE_STREAM, LEGACY_METHOD_TASKS_RESUBSCRIBE]);

/**
 * Whether a failure before the first event answers as an SSE stream: for v0.3's streaming methods (the v0.3
 * reference server and the A2A TCK read the JSON-RPC error as an event). A 1.0 caller gets a JSON answer,
 * as the SDK's own server gives it.
 */
export function answersErrorsAsStream(method: unknown, legacy: boolean): boolean {
  return legacy && typeof method === 'string' && LEGACY_STREAMING_METHODS.has(method);
}

/** A JSON-RPC error as a one-event SSE stream (HTTP 200, `event: error`, the envelope as its data). */
export function sendStreamError(reply: FastifyReply, envelope: object): FastifyReply {
  return reply
    .code(200)
    .header('cache-control', 'no-cache')
    .type('text/event-stream')
    .send(formatSSEErrorEvent(envelope));
}
