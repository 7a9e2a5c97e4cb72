import { AppError } from '../../errors.js';
import type { ChatMessage, FinishReason, ToolCall } from '../../llm/index.js';
import type { RegisteredAgent } from '../registry/agent-registry.js';
import { runModelStep, type ModelStepResult } from './model-step.js';
import { storeCheckpoint, type RunContext } from './run-context.js';
import { runToolStep } from './tool-step.js';

export interface LoopOutcome {
  /** Why the final model call stopped. */
  finishReason: FinishReason;
  /** Calls of client (frontend) tools the run ended with: the client runs them and sends the results in a later run. */
  clientToolCalls?: ToolCall[];
}

/** Where the loop starts: a new run at its conversation, a run taken over at its last checkpoint. */
export interface LoopStart {
  /** Everything the next model call sees, system prompt included. */
  messages: ChatMessage[];
  /** Model calls already made (they count toward max_iterations). */
  modelCalls: number;
  /** Tool calls to run before the next model call; their results follow `messages`. */
  toolCalls?: ToolCall[];
  /** Set when the stored run already had its final model call: the loop ends at once with this outcome. */
  ended?: LoopOutcome;
}

/** A new run's start: the agent's system prompt, then the conversation. */
export function firstLoopStart(agent: RegisteredAgent, conversation: ChatMessage[]): LoopStart {
  const messages: ChatMessage[] = agent.system_prompt
    ? [{ role: 'system', content: agent.system_prompt }, ...conversation]
    : conversation;
  return { messages, modelCalls: 0 };
}

/** Runs tool calls in parallel; waits for all of them (so every step is written) before a cancellation propagates. */
async function runToolSteps(ctx: RunContext, calls: ToolCall[]): Promise<ChatMessage[]> {
  if (calls.length === 0) return [];
  await storeCheckpoint(ctx);
  // Parallel calls wait together: the batch's wall time is what the run spent on them.
  const settled = await ctx.timer.measure(() => Promise.allSettled(calls.map((call) => runToolStep(ctx, call))));
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
export async function runAgentLoop(ctx: RunContext, start: LoopStart): Promise<LoopOutcome> {
  if (start.ended) return start.ended;
  const max = ctx.agent.max_iterations;
  let messages = [...start.messages, ...(await runToolSteps(ctx, start.toolCalls ?? []))];
  for (let calls = start.modelCalls + 1; calls <= max; calls += 1) {
    const result = await runModelStep(ctx, messages);
    if (result.toolCalls.length === 0) {
      await ctx.control.checkpoint();
      return { finishReason: result.finishReason };
    }
    const clientCalls = result.toolCalls.filter((call) => ctx.clientToolNames.has(call.name));
    if (clientCalls.length > 0) return handOverToClient(ctx, result, clientCalls);
    // Tools requested by the last allowed call would feed no further model call: the run fails instead.
    if (calls === max) break;
    const assistant: ChatMessage = { role: 'assistant', content: result.text, tool_calls: result.toolCalls };
    messages = [...messages, assistant, ...(await runToolSteps(ctx, result.toolCalls))];
  }
  throw maxIterationsExceeded(max);
}
