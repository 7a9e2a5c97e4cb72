import { UpstreamError } from '../errors.js';
import type { ChatMessage, ModelStreamPart } from '../llm/index.js';
import { describeError, type RunContext } from './run-context.js';
import type { ModelPromptLog } from './run.types.js';

export type ModelStepResult = Extract<ModelStreamPart, { type: 'end' }>;

/** One streamed model call: text deltas become events as they arrive; the step is written when the call ends. */
export async function runModelStep(ctx: RunContext, messages: ChatMessage[]): Promise<ModelStepResult> {
  await ctx.control.checkpoint();
  const step = ctx.recorder.begin('model', ctx.agent.model);
  ctx.emit({ type: 'step-start', stepId: step.stepId, stepIndex: step.stepIndex, kind: 'model' });
  const log: ModelPromptLog = {
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
  let end: ModelStepResult | undefined;
  try {
    const stream = ctx.models.stream({
      model: ctx.agent.model,
      messages,
      tools: ctx.toolDefinitions.length > 0 ? ctx.toolDefinitions : undefined,
      temperature: ctx.temperature,
      maxTokens: ctx.maxTokens,
      signal: ctx.control.signal,
    });
    for await (const part of stream) {
      log.ttft_ms ??= Math.round(performance.now() - step.startedMs);
      if (part.type === 'text-delta') {
        log.response += part.delta;
        if (part.delta) ctx.emit({ type: 'text-delta', delta: part.delta });
      } else if (part.type === 'end') end = part;
    }
    if (!end) throw new UpstreamError({ message: 'The model stream ended without a final part', retryable: false });
  } catch (error) {
    await ctx.recorder.end(step, { status: 'failed', promptLog: { ...log, error: describeError(error) } });
    throw error;
  }
  Object.assign(log, {
    response: end.text,
    tool_calls: end.toolCalls,
    finish_reason: end.finishReason,
    input_tokens: end.usage.inputTokens,
    output_tokens: end.usage.outputTokens,
    usage_estimated: end.usage.estimated,
  });
  await ctx.recorder.end(step, { status: 'completed', usage: end.usage, promptLog: log });
  return end;
}
