import { INVALID_SPAN_CONTEXT, trace, type Span, type Tracer } from '@opentelemetry/api';

export const INSTRUMENTATION_NAME = 'agent-gateway';

/** The gateway's tracer: the registered SDK's when telemetry is on, the API's no-op one otherwise. */
export function tracer(): Tracer {
  return trace.getTracer(INSTRUMENTATION_NAME);
}

/**
 * What the SDK's start set beyond the tracer: like the OpenTelemetry API's own provider, one per process
 * (two apps in one process share it).
 */
export const telemetrySettings = { enabled: false, captureContent: false };

/** What the span helpers hand out when telemetry is off: no attributes are even computed. */
export const NOOP_SPAN: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
