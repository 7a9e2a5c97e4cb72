import { isAppError, UpstreamError, type ErrorCode } from '../../errors.js';
import type { Guardrails } from '../../guardrails/index.js';
import {
  mapUsage,
  type ChatMessage,
  type FinishReason,
  type ModelAttempt,
  type ModelCallOptions,
  type ModelClient,
  type ModelStreamPart,
  type ReportedUsage,
  type ToolCall,
  type ToolChoice,
  type ToolDefinition,
  type Usage,
} from '../../llm/index.js';
import type { Logger } from '../../logger.js';
import { endChatSpan, startChatSpan, type TraceSpan } from '../../telemetry/index.js';
import type { RunBudget } from '../budgets/run-budget.js';
import type { RunControl } from '../control/run-control.js';
import type { OpenStep, RunRecorder, StepCharge } from '../records/run-recorder.js';
import type { RunReporter } from '../records/run-reporter.js';
import type { ModelPromptLog, PromptLogAttempt } from '../records/run.types.js';
import type { RegisteredAgent } from '../registry/agent-registry.js';
import { createOutputScreen } from './output-screen.js';
import type { RunEventPublisher } from './run-event-publisher.js';
import type { RunFlow } from './run-flow.js';
import type { RunTimer } from './run-timer.js';

export type ModelStepResult = Extract<ModelStreamPart, { type: 'end' }>;

/** What a model step uses of its run (runtime/run.ts). */
export interface ModelStepRun {
  readonly agent: RegisteredAgent;
  readonly models: ModelClient;
  readonly toolDefinitions: ToolDefinition[];
  /** Tools the client runs itself: the prompt log marks their calls as handed over. */
  readonly clientToolNames: ReadonlySet<string>;
  readonly parallelToolCalls: boolean | undefined;
  readonly temperature: number;
  readonly maxTokens: number | undefined;
  readonly callOptions: ModelCallOptions | undefined;
  readonly controller: RunControl;
  readonly recorder: RunRecorder;
  readonly reporter: RunReporter;
  /** Undefined when no budget applies to the run. */
  readonly budget: RunBudget | undefined;
  readonly guardrails: Guardrails | undefined;
  readonly timer: RunTimer;
  readonly flow: RunFlow;
  readonly trace: TraceSpan | undefined;
  readonly log: Logger | undefined;
  readonly events: Pick<RunEventPublisher, 'emit'>;
  /** The process left and handed the run on: an aborted call is not recorded here. */
  readonly handedOver: boolean;
}

/**
 * One streamed model call: text deltas pass the output guardrails and become events as they are
 * released; the step, its usage record and its cost are written when the call ends, success or not.
 * The returned text is what was released (redacted); a blocked answer ends with `content_filter`.
 */
export async function runModelStep(
  run: ModelStepRun,
  messages: ChatMessage[],
  toolChoice?: ToolChoice,
): Promise<ModelStepResult> {
  await run.controller.checkpoint();
  await run.recorder.checkpoint();
  // Reserves what this call can cost at most (its prompt and max_tokens), settled to its cost when it ends.
  await run.budget?.beforeModelCall(run.recorder.totals().costUsd, messages);
  const step = run.recorder.begin('model', run.agent.model);
  run.events.emit({ type: 'step-start', stepId: step.stepId, stepIndex: step.stepIndex, kind: 'model' });
  const modelId = run.agent.model.slice(run.agent.model.indexOf('/') + 1);
  const span = startChatSpan(() => chatSpanStart(run, modelId, messages), run.trace);
  // Output checks are events on the call's span.
  const screen = createOutputScreen(run.guardrails, (verdicts) => run.reporter.flag(verdicts, span));
  // What the model said, as received (before the guardrails), and what the guardrails let out.
  let raw = '';
  let response = '';
  let ttftMs: number | null = null;
  let reported: ReportedUsage | undefined;
  const toolCalls: ToolCall[] = [];
  // Retries and fallbacks: each attempt is a line of the prompt log; the one that answered is priced.
  const attempts: ModelAttempt[] = [];
  const release = (text: string) => {
    if (!text) return;
    run.timer.markFirstText(performance.now() - step.startedMs);
    response += text;
    run.events.emit({ type: 'text-delta', delta: text });
  };
  let end: ModelStepResult | undefined;
  try {
    const stream = run.models.stream({
      model: run.agent.model,
      ...(run.agent.fallback_models && { fallbackModels: run.agent.fallback_models }),
      onAttempt: (attempt) => attempts.push(attempt),
      messages,
      tools: run.toolDefinitions.length > 0 ? run.toolDefinitions : undefined,
      toolChoice,
      parallelToolCalls: run.parallelToolCalls,
      temperature: run.temperature,
      maxTokens: run.maxTokens,
      options: run.callOptions,
      signal: run.controller.signal,
      trace: span,
      log: run.log,
    });
    for await (const part of stream) {
      if (part.type === 'usage') {
        reported = part.usage;
        continue;
      }
      ttftMs ??= Math.round(performance.now() - step.startedMs);
      if (part.type === 'text-delta') {
        raw += part.delta;
        release(screen.push(part.delta));
      } else if (part.type === 'tool-call') toolCalls.push(part.toolCall);
      else end = part;
      // A client that stopped reading pauses the upstream here (its socket fills up) until it reads again.
      const behind = run.flow.ready(run.controller.signal);
      if (behind) await behind;
    }
    if (!end) throw new UpstreamError({ message: 'The model stream ended without a final part', retryable: false });
  } catch (error) {
    // A call that broke (client gone, operator cancel, upstream dropped) still cost what the upstream produced:
    // its own usage when a chunk carried it before the break, else (once any part arrived) the prompt and the
    // received text counted locally, marked estimated. A call that failed before its first part is not billed.
    // Handed on (the process leaves): as after a crash, the call is not recorded; the next owner makes it again.
    if (run.handedOver) {
      endChatSpan(span, { stepId: step.stepId, modelId, costUsd: 0, ttftMs, error });
      throw error;
    }
    const callMs = performance.now() - step.startedMs;
    run.timer.add(callMs);
    const usage =
      ttftMs === null && !reported
        ? undefined
        : mapUsage(reported, { messages, tools: run.toolDefinitions, text: raw, toolCalls });
    const promptLog = createPromptLog(run, messages, {
      response,
      ttftMs,
      usage,
      error: describeError(error, run.controller.signal),
      attempts,
    });
    const model = answeredBy(attempts);
    const charge = run.recorder.end(step, { status: 'failed', usage, promptLog, model });
    reportUsage(run, step, { ttftMs, callMs, charge, usage, status: 'error', model });
    // Not billed (no usage): its reservation is freed all the same.
    await run.budget?.settle(charge.costUsd);
    endChatSpan(span, { stepId: step.stepId, modelId, costUsd: charge.costUsd, ttftMs, error });
    throw error;
  }
  const callMs = performance.now() - step.startedMs;
  const screened = screen.finish(raw);
  release(screened.text);
  run.timer.add(callMs);
  const result: ModelStepResult = screened.blocked
    ? { ...end, text: '', toolCalls: [], finishReason: 'content_filter' }
    : { ...end, text: response };
  const promptLog = createPromptLog(run, messages, {
    response,
    ttftMs,
    toolChoice,
    usage: end.usage,
    toolCalls: result.toolCalls,
    finishReason: result.finishReason,
    attempts,
  });
  const model = answeredBy(attempts);
  const charge = run.recorder.end(step, { status: 'completed', usage: end.usage, promptLog, model });
  // Usage first: what the call cost is recorded whatever the budget ledger does next.
  reportUsage(run, step, { ttftMs, callMs, charge, usage: end.usage, status: 'ok', model });
  await run.budget?.settle(charge.costUsd);
  endChatSpan(span, {
    stepId: step.stepId,
    modelId,
    responseModel: end.responseModel,
    finishReason: result.finishReason,
    inputTokens: end.usage.inputTokens,
    outputTokens: end.usage.outputTokens,
    estimated: end.usage.estimated,
    costUsd: charge.costUsd,
    ttftMs,
    output: { text: result.text, toolCalls: result.toolCalls },
  });
  return result;
}

/**
 * The code and message a failed model step records: the run's cancellation when the call was aborted, else
 * an AppError's own, else `internal_error` (as the run reports it) with the error's message for the operator.
 */
function describeError(error: unknown, signal: AbortSignal): { code: ErrorCode; message: string } {
  // The client reports an aborted call as its own failure (upstream_error); the run's cancellation is the cause.
  if (signal.aborted && isAppError(signal.reason)) return { code: signal.reason.code, message: signal.reason.message };
  if (isAppError(error)) return { code: error.code, message: error.message };
  return { code: 'internal_error', message: error instanceof Error ? error.message : String(error) };
}

function chatSpanStart(run: ModelStepRun, modelId: string, messages: ChatMessage[]) {
  const info = run.models.describe(run.agent.model);
  return {
    provider: info.provider,
    providerType: info.providerType,
    modelId,
    temperature: run.temperature,
    maxTokens: run.maxTokens,
    messages,
  };
}

function reportUsage(
  run: ModelStepRun,
  step: OpenStep,
  call: {
    ttftMs: number | null;
    callMs: number;
    charge: StepCharge;
    usage: Usage | undefined;
    status: 'ok' | 'error';
    /** The model that answered; a fallback's record names it. */
    model: string | undefined;
  },
): void {
  const { ttftMs, callMs, charge, usage, status, model } = call;
  run.reporter.usage({
    ...(model !== undefined && model !== run.agent.model && { provider: model.slice(0, model.indexOf('/')), model }),
    step_id: step.stepId,
    input_tokens: usage?.inputTokens ?? 0,
    output_tokens: usage?.outputTokens ?? 0,
    cached_tokens: usage?.cachedInputTokens ?? 0,
    cost_usd: charge.costUsd,
    latency_ms: Math.round(callMs),
    ttft_ms: ttftMs,
    status,
    priced: charge.priced,
    estimated: usage?.estimated ?? false,
  });
}

/** The target whose answer (whole or cut) the step is billed for: the attempt the call did not move on from. */
function answeredBy(attempts: ModelAttempt[]): string | undefined {
  return attempts.findLast((attempt) => attempt.next === undefined)?.model;
}

function mapAttempts(attempts: ModelAttempt[]): PromptLogAttempt[] {
  return attempts.map((attempt) => ({
    model: attempt.model,
    status: attempt.status,
    latency_ms: attempt.latencyMs,
    ...(attempt.reason !== undefined && { reason: attempt.reason }),
    ...(attempt.upstreamStatus !== undefined && { upstream_status: attempt.upstreamStatus }),
    ...(attempt.next !== undefined && { next: attempt.next }),
  }));
}

/** What the step sent and received, as an operator replays it. */
function createPromptLog(
  run: ModelStepRun,
  messages: ChatMessage[],
  call: {
    response: string;
    ttftMs: number | null;
    usage: Usage | undefined;
    toolCalls?: ToolCall[];
    toolChoice?: ToolChoice;
    finishReason?: FinishReason;
    error?: ModelPromptLog['error'];
    attempts: ModelAttempt[];
  },
): ModelPromptLog {
  const handedOver = (call.toolCalls ?? []).filter((toolCall) => run.clientToolNames.has(toolCall.name));
  return {
    messages,
    tools: run.toolDefinitions.map((tool) => tool.name),
    temperature: run.temperature,
    max_tokens: run.maxTokens ?? null,
    ...(run.callOptions && { call_options: run.callOptions }),
    response: call.response,
    tool_calls: call.toolCalls ?? [],
    ...(handedOver.length > 0 && { client_tool_calls: handedOver.map((toolCall) => toolCall.id) }),
    ...(call.toolChoice && { tool_choice: call.toolChoice }),
    finish_reason: call.finishReason ?? null,
    input_tokens: call.usage?.inputTokens ?? 0,
    output_tokens: call.usage?.outputTokens ?? 0,
    usage_estimated: call.usage?.estimated ?? false,
    ttft_ms: call.ttftMs,
    ...(call.error && { error: call.error }),
    // One attempt that answered says nothing the step does not.
    ...(call.attempts.length > 1 && { attempts: mapAttempts(call.attempts) }),
  };
}
