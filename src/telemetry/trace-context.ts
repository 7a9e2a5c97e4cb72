import {
  INVALID_SPAN_CONTEXT,
  propagation,
  ROOT_CONTEXT,
  trace,
  type Context,
  type Link,
  type Span,
  type SpanContext,
} from '@opentelemetry/api';

import { telemetrySettings } from './tracer.js';

// The gateway passes trace context explicitly (no context manager: an AsyncLocalStorage one turns on a promise
// hook for every promise in the process). The span a piece of work belongs to travels with the work itself: the
// fastify request, the run's context, the tool call, a consumer's callback. Undefined: not traced.
export type TraceSpan = Span | undefined;

// W3C trace context as one header value: 00-<trace id>-<span id>-<flags>.
const TRACEPARENT = /^[\da-f]{2}-([\da-f]{32})-([\da-f]{16})-([\da-f]{2})$/;

// Unsampled spans still carry their context on (flags 00), so a downstream gateway does not sample either.
// Every span here comes from the SDK (valid ids) or from a traceparent the propagator validated, so comparing
// with the invalid ids is enough (isSpanContextValid runs two regular expressions).
function validSpanContext(span: TraceSpan): SpanContext | undefined {
  const spanContext = span?.spanContext();
  return spanContext &&
    spanContext.traceId !== INVALID_SPAN_CONTEXT.traceId &&
    spanContext.spanId !== INVALID_SPAN_CONTEXT.spanId
    ? spanContext
    : undefined;
}

/** The context whose current span is `span`: the parent argument of `startSpan` for its children. */
export function contextOf(span: TraceSpan): Context {
  return span ? trace.setSpan(ROOT_CONTEXT, span) : ROOT_CONTEXT;
}

/**
 * Adds `traceparent` (and `tracestate`) of `span` to outgoing headers; nothing without a span.
 * Written directly rather than through the propagators: the gateway sets no baggage, and this runs per upstream call.
 */
export function injectTraceHeaders<T extends Record<string, string>>(headers: T, span: TraceSpan): T {
  if (!telemetrySettings.enabled) return headers;
  const spanContext = validSpanContext(span);
  if (!spanContext) return headers;
  const tracestate = spanContext.traceState?.serialize();
  return { ...headers, traceparent: traceparentOf(spanContext), ...(tracestate && { tracestate }) };
}

/** The span's `traceparent`, stored with work done later (an inbox item, a mission) to link back to. */
export function spanTraceparent(span: TraceSpan): string | null {
  const spanContext = validSpanContext(span);
  return spanContext ? traceparentOf(spanContext) : null;
}

function traceparentOf({ traceId, spanId, traceFlags }: SpanContext): string {
  return `00-${traceId}-${spanId}-${traceFlags < 16 ? '0' : ''}${traceFlags.toString(16)}`;
}

/** A span link to a stored `traceparent`; none for a missing or malformed one. */
export function linksTo(traceparent: string | null | undefined): Link[] {
  const [, traceId, spanId, flags] = (traceparent && TRACEPARENT.exec(traceparent)) || [];
  if (!traceId || !spanId || !flags) return [];
  return [{ context: { traceId, spanId, traceFlags: Number.parseInt(flags, 16), isRemote: true } }];
}

/** The span's trace id (sampled or not), for the run record; null without a span. */
export function spanTraceId(span: TraceSpan): string | null {
  return validSpanContext(span)?.traceId ?? null;
}

/** Log fields of a span, bound on the logger of the request or run it traces. */
export function traceLogFields(span: TraceSpan): { trace_id?: string; span_id?: string } {
  const spanContext = validSpanContext(span);
  if (!spanContext) return {};
  const { traceId, spanId } = spanContext;
  return { trace_id: traceId, span_id: spanId };
}

/** Continues a trace from incoming headers (`traceparent`), or starts from the root. */
export function extractTraceContext(headers: Record<string, string | string[] | undefined>): Context {
  // Most requests carry none: no propagator run (it looks itself up and reads the baggage header too).
  return headers.traceparent === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, headers);
}

/** Sets `traceparent` (and `tracestate`) of `span` on a Headers object. */
export function setTraceHeaders(headers: { set(name: string, value: string): void }, span: TraceSpan): void {
  for (const [name, value] of Object.entries(injectTraceHeaders<Record<string, string>>({}, span)))
    headers.set(name, value);
}

type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A fetch that sends `span`'s trace context with its requests. */
export function createTracedFetch(span: TraceSpan, fetchImpl?: FetchLike): FetchLike {
  const send = fetchImpl ?? globalThis.fetch;
  const carrier = injectTraceHeaders<Record<string, string>>({}, span);
  if (Object.keys(carrier).length === 0) return send;
  return (input, init) => {
    const headers = new Headers(init?.headers);
    for (const [name, value] of Object.entries(carrier)) headers.set(name, value);
    return send(input, { ...init, headers });
  };
}
