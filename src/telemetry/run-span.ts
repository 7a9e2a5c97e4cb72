import { SpanKind, type Link, type Span } from '@opentelemetry/api';
import { GATEWAY, GEN_AI } from './gen-ai-attributes.js';
import { recordSpanError } from './record-error.js';
import { contextOf, type TraceSpan } from './trace-context.js';
import { NOOP_SPAN, telemetrySettings, tracer } from './tracer.js';

export interface RunSpanStart {
  agentName: string;
  source: string;
  sessionId?: string;
  /** The trace that stored the work this run does (a webhook's intake, a mission's creation). */
  links?: Link[];
}

export interface RunSpanEnd {
  runId: string;
  status: string;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  finishReason?: string;
  error?: unknown;
}

/** `invoke_agent {agent}`: one per run, the parent of its `chat` and `execute_tool` spans; a child of `parent` (the request's span). */
export function startRunSpan(start: RunSpanStart, parent?: TraceSpan): Span {
  if (!telemetrySettings.enabled) return NOOP_SPAN;
  return tracer().startSpan(
    `invoke_agent ${start.agentName}`,
    {
      kind: SpanKind.INTERNAL,
      // Stored work (a delivery, a mission step) runs in a trace of its own, linked to the one that stored it,
      // not inside whatever request happened to wake the worker.
      root: (start.links?.length ?? 0) > 0,
      links: start.links,
      attributes: {
        [GEN_AI.OPERATION_NAME]: 'invoke_agent',
        [GEN_AI.AGENT_NAME]: start.agentName,
        [GATEWAY.RUN_SOURCE]: start.source,
        ...(start.sessionId && { [GEN_AI.CONVERSATION_ID]: start.sessionId }),
      },
    },
    contextOf(parent),
  );
}

/** The run's id, as soon as it has one (the span starts before the run is stored). */
export function setRunId(span: Span, runId: string): void {
  span.setAttribute(GATEWAY.RUN_ID, runId);
}

export function endRunSpan(span: Span, end: RunSpanEnd): void {
  if (span.isRecording()) {
    span.setAttributes({
      [GATEWAY.RUN_ID]: end.runId,
      [GATEWAY.RUN_STATUS]: end.status,
      [GATEWAY.COST_USD]: end.costUsd,
      [GEN_AI.USAGE_INPUT_TOKENS]: end.inputTokens,
      [GEN_AI.USAGE_OUTPUT_TOKENS]: end.outputTokens,
      ...(end.finishReason && { [GEN_AI.RESPONSE_FINISH_REASONS]: [end.finishReason] }),
    });
    if (end.error !== undefined) {
      // Only a refusal is marked: every other run was admitted (one attribute less on every span).
      if (errorCodeOf(end.error) === 'budget_exceeded') span.setAttribute(GATEWAY.BUDGET_DECISION, 'rejected');
      recordSpanError(span, end.error);
    }
  }
  span.end();
}

function errorCodeOf(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}
