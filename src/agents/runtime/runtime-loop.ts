import { AppError } from '../../errors.js';
import type { ChatMessage, FinishReason, ToolCall } from '../../llm/index.js';
import { runModelStep, type ModelStepResult } from './model-step.js';
import type { RunContext } from './run-context.js';
import { runToolStep } from './tool-step.js';

export interface LoopOutcome {
  /** Why the final model call stopped. */
  finishReason: FinishReason;
  /** Calls of client (frontend) tools the run ended with: the client runs them and sends the results in a later run. */
  clientToolCalls?: ToolCall[];
}

/** Runs tool calls in parallel; waits for all of them (so every step is written) before a cancellation propagates. */
async function runToolSteps(ctx: RunContext, calls: ToolCall[]): Promise<ChatMessage[]> {
  const started = performance.now();
  const settled = await Promise.allSettled(calls.map((call) => runToolStep(ctx, call)));
  // Parallel calls wait together: the batch's wall time is what the run spent on them.
  ctx.timing.upstreamMs += performance.now() - started;
  const rejected = settled.find((outcome) => outcome.status === 'rejected');
  if (rejected) throw rejected.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<ChatMessage>).value);
}

export function maxIterationsExceeded(maxIterations: number): AppError {
  return new AppError({
    code: 'max_iterations_exceeded',
    message: `The agent made ${maxIterations} model calls (max_iterations) without reaching a final answer`,
  });
}

/**
 * Ends the run on the model's call of client tools: the agent's own tools requested alongside still run
 * (their results are the run's to give), the client's are only announced as tool-call events.
 */
async function handOverToClient(
  ctx: RunContext,
  result: ModelStepResult,
  clientCalls: ToolCall[],
): Promise<LoopOutcome> {
  const serverCalls = result.toolCalls.filter((call) => !ctx.clientToolNames.has(call.name));
  await runToolSteps(ctx, serverCalls);
  await ctx.control.checkpoint();
  for (const call of clientCalls)
    ctx.emit({ type: 'tool-call', toolCallId: call.id, name: call.name, arguments: call.arguments });
  return { finishReason: 'tool_calls', clientToolCalls: clientCalls };
}

/**
 * The agent loop: model call, then the requested tool calls in parallel, then the next model call,
 * until the model answers without tool calls, calls a client tool, or `max_iterations` model calls
 * were made. The text the agent says along the way leaves as text-delta events.
 */
export async function runAgentLoop(ctx: RunContext, conversation: ChatMessage[]): Promise<LoopOutcome> {
  let messages: ChatMessage[] = ctx.agent.system_prompt
    ? [{ role: 'system', content: ctx.agent.system_prompt }, ...conversation]
    : conversation;
  for (let iteration = 1; iteration <= ctx.agent.max_iterations; iteration += 1) {
    const result = await runModelStep(ctx, messages);
    if (result.toolCalls.length === 0) {
      await ctx.control.checkpoint();
      return { finishReason: result.finishReason };
    }
    const clientCalls = result.toolCalls.filter((call) => ctx.clientToolNames.has(call.name));
    if (clientCalls.length > 0) return handOverToClient(ctx, result, clientCalls);
    // Tools requested by the last allowed call would feed no further model call: the run fails instead.
    if (iteration === ctx.agent.max_iterations) break;
    const assistant: ChatMessage = { role: 'assistant', content: result.text, tool_calls: result.toolCalls };
    messages = [...messages, assistant, ...(await runToolSteps(ctx, result.toolCalls))];
  }
  throw maxIterationsExceeded(ctx.agent.max_iterations);
}
