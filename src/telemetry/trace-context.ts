import {
  context,
  INVALID_SPAN_CONTEXT,
  propagation,
  ROOT_CONTEXT,
  trace,
  type Context,
  type Link,
  type Span,
  type SpanContext,
} from '@opentelemetry/api';

import { NOOP_SPAN, telemetrySettings } from './tracer.js';

// W3C trace context as one header value: 00-<trace id>-<span id>-<flags>.
const TRACEPARENT = /^[\da-f]{2}-([\da-f]{32})-([\da-f]{16})-([\da-f]{2})$/;

// Unsampled spans still carry their context on (flags 00), so a downstream gateway does not sample either.
// Every span here comes from the SDK (valid ids) or from a traceparent the propagator validated, so comparing
// with the invalid ids is enough (isSpanContextValid runs two regular expressions, on every log line too).
function activeSpanContext(): SpanContext | undefined {
  const spanContext = trace.getActiveSpan()?.spanContext();
  return spanContext &&
    spanContext.traceId !== INVALID_SPAN_CONTEXT.traceId &&
    spanContext.spanId !== INVALID_SPAN_CONTEXT.spanId
    ? spanContext
    : undefined;
}

/**
 * Adds `traceparent` (and `tracestate`) of the current span to outgoing headers; nothing outside a span.
 * Written directly rather than through the propagators: the gateway sets no baggage, and this runs per upstream call.
 */
export function injectTraceHeaders<T extends Record<string, string>>(headers: T): T {
  if (!telemetrySettings.enabled) return headers;
  const spanContext = activeSpanContext();
  if (!spanContext) return headers;
  const tracestate = spanContext.traceState?.serialize();
  return { ...headers, traceparent: traceparentOf(spanContext), ...(tracestate && { tracestate }) };
}

/** The current span's `traceparent`, stored with work done later (an inbox item, a mission) to link back to. */
export function currentTraceparent(): string | null {
  const spanContext = activeSpanContext();
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

/** The trace id of the current span (sampled or not), for the run record; null when telemetry is off. */
export function currentTraceId(): string | null {
  return activeSpanContext()?.traceId ?? null;
}

/** Log fields of the current span: the pino mixin adds them to every line written inside a traced request or run. */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  const spanContext = activeSpanContext();
  if (!spanContext) return {};
  const { traceId, spanId } = spanContext;
  return { trace_id: traceId, span_id: spanId };
}

/** Continues a trace from incoming headers (`traceparent`), or starts from the root. */
export function extractTraceContext(headers: Record<string, string | string[] | undefined>): Context {
  return propagation.extract(ROOT_CONTEXT, headers);
}

/** Runs `fn` with `span` as the current span, so spans and outgoing calls made inside are its children. */
export function withSpan<T>(span: Span, fn: () => T): T {
  if (span === NOOP_SPAN) return fn();
  return context.with(trace.setSpan(context.active(), span), fn);
}

/** Sets `traceparent` (and `tracestate`) of the current span on a Headers object. */
export function setTraceHeaders(headers: { set(name: string, value: string): void }): void {
  for (const [name, value] of Object.entries(injectTraceHeaders<Record<string, string>>({}))) headers.set(name, value);
}

type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A fetch that sends the current span's trace context with every request (AI SDK providers, MCP over HTTP). */
export function createTracedFetch(fetchImpl?: FetchLike): FetchLike {
  return (input, init) => {
    const send = fetchImpl ?? globalThis.fetch;
    const carrier = injectTraceHeaders<Record<string, string>>({});
    if (Object.keys(carrier).length === 0) return send(input, init);
    const headers = new Headers(init?.headers);
    for (const [name, value] of Object.entries(carrier)) headers.set(name, value);
    return send(input, { ...init, headers });
  };
}
