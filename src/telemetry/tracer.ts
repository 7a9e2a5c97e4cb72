import { INVALID_SPAN_CONTEXT, trace, type Span, type Tracer } from '@opentelemetry/api';

export const INSTRUMENTATION_NAME = 'agent-gateway';

let cached: Tracer | undefined;

/**
 * The gateway's tracer: the registered SDK's when telemetry is on, the API's no-op one otherwise. Looked up
 * once per SDK start (a look-up builds a key and searches a map on every span otherwise).
 */
export function tracer(): Tracer {
  return (cached ??= trace.getTracer(INSTRUMENTATION_NAME));
}

/** The SDK started or stopped: the next span looks the tracer up again. */
export function resetTracer(): void {
  cached = undefined;
}

/**
 * What the SDK's start set beyond the tracer: like the OpenTelemetry API's own provider, one per process
 * (two apps in one process share it).
 */
export const telemetrySettings = { enabled: false, captureContent: false };

/** What the span helpers hand out when telemetry is off: no attributes are even computed. */
export const NOOP_SPAN: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
