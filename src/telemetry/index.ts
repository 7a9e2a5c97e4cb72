export { startTelemetry } from './start-telemetry.js';
export type { PrometheusMetricSource, Telemetry } from './telemetry.types.js';
export { registerHttpServerSpans, requestSpan } from './http-server-spans.js';
export { startRunSpan, setRunId, endRunSpan, type RunSpanStart, type RunSpanEnd } from './run-span.js';
export { startChatSpan, endChatSpan, type ChatSpanStart, type ChatSpanEnd } from './chat-span.js';
export { startToolSpan, endToolSpan, type ToolSpanStart } from './tool-span.js';
export { withConsumerSpan, type ConsumerSpanStart } from './consumer-span.js';
export { recordSpanError } from './record-error.js';
export { addGuardrailEvent } from './guardrail-event.js';
export {
  contextOf,
  createTracedFetch,
  injectTraceHeaders,
  linksTo,
  setTraceHeaders,
  spanTraceId,
  spanTraceparent,
  traceLogFields,
  type TraceSpan,
} from './trace-context.js';
export { GEN_AI, GATEWAY } from './gen-ai-attributes.js';
