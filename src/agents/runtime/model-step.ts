import { UpstreamError } from '../../errors.js';
import {
  mapUsage,
  type ChatMessage,
  type ModelStreamPart,
  type ReportedUsage,
  type ToolCall,
  type Usage,
} from '../../llm/index.js';
import { endChatSpan, startChatSpan, type TraceSpan } from '../../telemetry/index.js';
import { describeError, storeCheckpoint, type RunContext } from './run-context.js';
import { createOutputScreen, type OutputScreen } from './run-guardrails.js';
import type { OpenStep, StepCharge } from '../records/run-recorder.js';
import type { ModelPromptLog } from '../records/run.types.js';

export type ModelStepResult = Extract<ModelStreamPart, { type: 'end' }>;

/** What the model said before its call ended, as received (before the guardrails). */
interface Received {
  raw: string;
  toolCalls: ToolCall[];
  /** The upstream's own count, once a chunk carried it. */
  usage?: ReportedUsage;
}

/**
 * One streamed model call: text deltas pass the output guardrails and become events as they are
 * released; the step, its usage record and its cost are written when the call ends, success or not.
 * The returned text is what was released (redacted); a blocked answer ends with `content_filter`.
 */
export async function runModelStep(ctx: RunContext, messages: ChatMessage[]): Promise<ModelStepResult> {
  await ctx.control.checkpoint();
  await storeCheckpoint(ctx);
  // Reserves what this call can cost at most (its prompt and max_tokens), settled to its cost when it ends.
  await ctx.budget?.beforeModelCall(ctx.recorder.totals().costUsd, messages);
  const step = ctx.recorder.begin('model', ctx.agent.model);
  ctx.emit({ type: 'step-start', stepId: step.stepId, stepIndex: step.stepIndex, kind: 'model' });
  const log = createPromptLog(ctx, messages);
  const modelId = ctx.agent.model.slice(ctx.agent.model.indexOf('/') + 1);
  const span = startChatSpan(() => chatSpanStart(ctx, modelId, messages), ctx.trace);
  // Output checks are events on the call's span.
  const screen = createOutputScreen(ctx.guardrails, (verdicts) => ctx.reporter.flag(verdicts, span));
  const received: Received = { raw: '', toolCalls: [] };
  let end: ModelStepResult;
  try {
    end = await streamCall(ctx, messages, step, log, screen, received, span);
  } catch (error) {
    const costUsd = await endFailedStep(ctx, messages, step, log, received, error);
    endChatSpan(span, { stepId: step.stepId, modelId, costUsd, ttftMs: log.ttft_ms, error });
    throw error;
  }
  const { raw } = received;
  const callMs = performance.now() - step.startedMs;
  const screened = screen.finish(raw);
  release(ctx, step, log, screened.text);
  ctx.timer.add(callMs);
  const result: ModelStepResult = screened.blocked
    ? { ...end, text: '', toolCalls: [], finishReason: 'content_filter' }
    : { ...end, text: log.response };
  Object.assign(log, {
    tool_calls: result.toolCalls,
    finish_reason: result.finishReason,
    input_tokens: end.usage.inputTokens,
    output_tokens: end.usage.outputTokens,
    usage_estimated: end.usage.estimated,
  });
  const charge = ctx.recorder.end(step, { status: 'completed', usage: end.usage, promptLog: log });
  // Usage first: what the call cost is recorded whatever the budget ledger does next.
  reportUsage(ctx, step, log, callMs, charge, end.usage, 'ok');
  await ctx.budget?.settle(charge.costUsd);
  endChatSpan(span, {
    stepId: step.stepId,
    modelId,
    responseModel: end.responseModel,
    finishReason: result.finishReason,
    inputTokens: end.usage.inputTokens,
    outputTokens: end.usage.outputTokens,
    estimated: end.usage.estimated,
    costUsd: charge.costUsd,
    ttftMs: log.ttft_ms,
    output: { text: result.text, toolCalls: result.toolCalls },
  });
  return result;
}

function chatSpanStart(ctx: RunContext, modelId: string, messages: ChatMessage[]) {
  const info = ctx.models.describe(ctx.agent.model);
  return {
    provider: info.provider,
    providerType: info.providerType,
    modelId,
    temperature: ctx.temperature,
    maxTokens: ctx.maxTokens,
    messages,
  };
}

/**
 * A call that broke (client gone, operator cancel, upstream dropped) still cost what the upstream
 * produced: its own usage when a chunk carried it before the break, else (once any part arrived) the
 * prompt and the received text counted locally, marked estimated; priced, charged and reported either way.
 * A call that failed before its first part (refused, unreachable) is not billed. Returns the cost charged.
 */
async function endFailedStep(
  ctx: RunContext,
  messages: ChatMessage[],
  step: OpenStep,
  log: ModelPromptLog,
  received: Received,
  error: unknown,
): Promise<number> {
  const callMs = performance.now() - step.startedMs;
  ctx.timer.add(callMs);
  const usage =
    log.ttft_ms === null && !received.usage
      ? undefined
      : mapUsage(received.usage, {
          messages,
          tools: ctx.toolDefinitions,
          text: received.raw,
          toolCalls: received.toolCalls,
        });
  const promptLog = {
    ...log,
    error: describeError(error, ctx.control.signal),
    ...(usage && {
      input_tokens: usage.inputTokens,
      output_tokens: usage.outputTokens,
      usage_estimated: usage.estimated,
    }),
  };
  const charge = ctx.recorder.end(step, { status: 'failed', usage, promptLog });
  reportUsage(ctx, step, log, callMs, charge, usage, 'error');
  // Not billed (no usage): its reservation is freed all the same.
  await ctx.budget?.settle(charge.costUsd);
  return charge.costUsd;
}

/** The call's end part; `received` keeps what arrived, so a call that breaks can still be counted. */
async function streamCall(
  ctx: RunContext,
  messages: ChatMessage[],
  step: OpenStep,
  log: ModelPromptLog,
  screen: OutputScreen,
  received: Received,
  span: TraceSpan,
): Promise<ModelStepResult> {
  const stream = ctx.models.stream({
    model: ctx.agent.model,
    messages,
    tools: ctx.toolDefinitions.length > 0 ? ctx.toolDefinitions : undefined,
    temperature: ctx.temperature,
    maxTokens: ctx.maxTokens,
    signal: ctx.control.signal,
    trace: span,
    log: ctx.log,
  });
  let end: ModelStepResult | undefined;
  for await (const part of stream) {
    if (part.type === 'usage') {
      received.usage = part.usage;
      continue;
    }
    log.ttft_ms ??= Math.round(performance.now() - step.startedMs);
    if (part.type === 'text-delta') {
      received.raw += part.delta;
      release(ctx, step, log, screen.push(part.delta));
    } else if (part.type === 'tool-call') received.toolCalls.push(part.toolCall);
    else end = part;
    // A client that stopped reading pauses the upstream here (its socket fills up) until it reads again.
    const behind = ctx.flow?.ready(ctx.control.signal);
    if (behind) await behind;
  }
  if (!end) throw new UpstreamError({ message: 'The model stream ended without a final part', retryable: false });
  return end;
}

/** Text the guardrails let out: published, and kept as the step's (and the run's) answer. */
function release(ctx: RunContext, step: OpenStep, log: ModelPromptLog, text: string): void {
  if (!text) return;
  ctx.timer.markFirstText(performance.now() - step.startedMs);
  log.response += text;
  ctx.emit({ type: 'text-delta', delta: text });
}

function reportUsage(
  ctx: RunContext,
  step: OpenStep,
  log: ModelPromptLog,
  callMs: number,
  charge: StepCharge,
  usage: Usage | undefined,
  status: 'ok' | 'error',
): void {
  ctx.reporter.usage({
    step_id: step.stepId,
    input_tokens: usage?.inputTokens ?? 0,
    output_tokens: usage?.outputTokens ?? 0,
    cached_tokens: usage?.cachedInputTokens ?? 0,
    cost_usd: charge.costUsd,
    latency_ms: Math.round(callMs),
    ttft_ms: log.ttft_ms,
    status,
    priced: charge.priced,
    estimated: usage?.estimated ?? false,
  });
}

function createPromptLog(ctx: RunContext, messages: ChatMessage[]): ModelPromptLog {
  return {
    messages,
    tools: ctx.toolDefinitions.map((tool) => tool.name),
    temperature: ctx.temperature,
    max_tokens: ctx.maxTokens ?? null,
    response: '',
    tool_calls: [],
    finish_reason: null,
    input_tokens: 0,
    output_tokens: 0,
    usage_estimated: false,
    ttft_ms: null,
  };
}
