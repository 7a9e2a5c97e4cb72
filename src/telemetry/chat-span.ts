import { SpanKind, type Span } from '@opentelemetry/api';
import { GATEWAY, GEN_AI } from './gen-ai-attributes.js';
import { recordSpanError } from './record-error.js';
import { contextOf, type TraceSpan } from './trace-context.js';
import { NOOP_SPAN, telemetrySettings, tracer } from './tracer.js';

export interface ChatSpanStart {
  /** The configured provider's name and type (`openai`, `anthropic`, `openai-compatible`, `dev`). */
  provider: string;
  providerType: string;
  /** The model id sent upstream (without the `<provider>/` prefix). */
  modelId: string;
  temperature?: number;
  maxTokens?: number;
  /** The messages as sent (after the input guardrails); recorded only with `capture_content`. */
  messages?: readonly unknown[];
}

export interface ChatSpanEnd {
  stepId: string;
  /** The model id the call was sent with. */
  modelId: string;
  /** The model id the provider says answered; the requested one when it did not say. */
  responseModel?: string;
  finishReason?: string;
  inputTokens?: number;
  outputTokens?: number;
  estimated?: boolean;
  costUsd: number;
  ttftMs: number | null;
  /** The answer released to the client (after the output guardrails); recorded only with `capture_content`. */
  output?: { text: string; toolCalls: readonly unknown[] };
  error?: unknown;
}

/** `chat {model}`: one per model call, a CLIENT span around the upstream request. `describe` runs only when telemetry is on. */
export function startChatSpan(describe: () => ChatSpanStart, parent: TraceSpan): Span {
  if (!telemetrySettings.enabled) return NOOP_SPAN;
  const start = describe();
  const span = tracer().startSpan(
    `chat ${start.modelId}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        [GEN_AI.OPERATION_NAME]: 'chat',
        [GEN_AI.PROVIDER_NAME]: mapProviderName(start.provider, start.providerType),
        [GEN_AI.REQUEST_MODEL]: start.modelId,
        ...(start.temperature !== undefined && { [GEN_AI.REQUEST_TEMPERATURE]: start.temperature }),
        ...(start.maxTokens !== undefined && { [GEN_AI.REQUEST_MAX_TOKENS]: start.maxTokens }),
      },
    },
    contextOf(parent),
  );
  if (telemetrySettings.captureContent && start.messages && span.isRecording())
    span.setAttribute(GEN_AI.INPUT_MESSAGES, JSON.stringify(start.messages));
  return span;
}

export function endChatSpan(span: Span, end: ChatSpanEnd): void {
  if (span.isRecording()) {
    span.setAttributes({
      [GATEWAY.STEP_ID]: end.stepId,
      [GEN_AI.RESPONSE_MODEL]: end.responseModel ?? end.modelId,
      [GATEWAY.COST_USD]: end.costUsd,
      ...(end.finishReason && { [GEN_AI.RESPONSE_FINISH_REASONS]: [end.finishReason] }),
      ...(end.inputTokens !== undefined && { [GEN_AI.USAGE_INPUT_TOKENS]: end.inputTokens }),
      ...(end.outputTokens !== undefined && { [GEN_AI.USAGE_OUTPUT_TOKENS]: end.outputTokens }),
      ...(end.estimated && { [GATEWAY.USAGE_ESTIMATED]: true }),
      ...(end.ttftMs !== null && { [GATEWAY.TTFT_MS]: end.ttftMs }),
    });
    if (telemetrySettings.captureContent && end.output)
      span.setAttribute(
        GEN_AI.OUTPUT_MESSAGES,
        JSON.stringify([{ role: 'assistant', content: end.output.text, tool_calls: end.output.toolCalls }]),
      );
    if (end.error !== undefined) recordSpanError(span, end.error);
  }
  span.end();
}

/** The conventions' well-known provider names where they apply; a self-hosted compatible server goes by its configured name. */
export function mapProviderName(provider: string, providerType: string): string {
  if (providerType === 'openai' || providerType === 'anthropic') return providerType;
  return provider;
}
