import { SpanKind, type Span } from '@opentelemetry/api';
import { GATEWAY, GEN_AI } from './gen-ai-attributes.js';
import { recordSpanError } from './record-error.js';
import { contextOf, type TraceSpan } from './trace-context.js';
import { NOOP_SPAN, telemetrySettings, tracer } from './tracer.js';

export interface ToolSpanStart {
  name: string;
  callId: string;
  /** Recorded only with `capture_content`. */
  arguments?: string;
}

/** `execute_tool {tool}`: one per tool call the model asked for. */
export function startToolSpan(start: ToolSpanStart, parent: TraceSpan): Span {
  if (!telemetrySettings.enabled) return NOOP_SPAN;
  const span = tracer().startSpan(
    `execute_tool ${start.name}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        [GEN_AI.OPERATION_NAME]: 'execute_tool',
        [GEN_AI.TOOL_NAME]: start.name,
        [GEN_AI.TOOL_CALL_ID]: start.callId,
        [GEN_AI.TOOL_TYPE]: 'function',
      },
    },
    contextOf(parent),
  );
  if (telemetrySettings.captureContent && start.arguments !== undefined && span.isRecording())
    span.setAttribute(GEN_AI.TOOL_CALL_ARGUMENTS, start.arguments);
  return span;
}

export function endToolSpan(span: Span, end: { stepId: string; result?: string; error?: unknown }): void {
  if (span.isRecording()) {
    span.setAttribute(GATEWAY.STEP_ID, end.stepId);
    if (telemetrySettings.captureContent && end.result !== undefined)
      span.setAttribute(GEN_AI.TOOL_CALL_RESULT, end.result);
    if (end.error !== undefined) recordSpanError(span, end.error);
  }
  span.end();
}
