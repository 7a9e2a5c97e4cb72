import { AppError } from '../../errors.js';
import type { ChatMessage, FinishReason, ToolCall, ToolChoice } from '../../llm/index.js';
import type { RegisteredAgent } from '../registry/agent-registry.js';
import type { RunTimer } from './run-timer.js';
import { runModelStep, type ModelStepResult, type ModelStepRun } from './model-step.js';
import { runToolStep, type ToolStepRun } from './tool-step.js';

/** What the loop uses of its run (runtime/run.ts), besides what its steps do. */
export interface LoopRun extends ModelStepRun, ToolStepRun {
  readonly agent: RegisteredAgent;
  /** The caller's tool_choice: it applies to the run's first model call (a forced call would repeat forever after). */
  readonly toolChoice: ToolChoice | undefined;
  readonly timer: RunTimer;
}

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

/** Runs tool calls in parallel; waits for all of them (so every step is written) before a cancellation propagates. */
async function runToolSteps(run: LoopRun, calls: ToolCall[]): Promise<ChatMessage[]> {
  if (calls.length === 0) return [];
  await run.recorder.checkpoint();
  // Parallel calls wait together: the batch's wall time is what the run spent on them.
  const settled = await run.timer.measure(() => Promise.allSettled(calls.map((call) => runToolStep(run, call))));
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
async function handOverToClient(run: LoopRun, result: ModelStepResult, clientCalls: ToolCall[]): Promise<LoopOutcome> {
  const serverCalls = result.toolCalls.filter((call) => !run.clientToolNames.has(call.name));
  await runToolSteps(run, serverCalls);
  await run.controller.checkpoint();
  for (const call of clientCalls)
    run.events.emit({ type: 'tool-call', toolCallId: call.id, name: call.name, arguments: call.arguments });
  return { finishReason: 'tool_calls', clientToolCalls: clientCalls };
}

/**
 * The agent loop: model call, then the requested tool calls in parallel, then the next model call,
 * until the model answers without tool calls, calls a client tool, or `max_iterations` model calls
 * were made. The text the agent says along the way leaves as text-delta events.
 */
export async function runAgentLoop(run: LoopRun, start: LoopStart): Promise<LoopOutcome> {
  if (start.ended) return start.ended;
  const max = run.agent.max_iterations;
  let messages = [...start.messages, ...(await runToolSteps(run, start.toolCalls ?? []))];
  for (let calls = start.modelCalls + 1; calls <= max; calls += 1) {
    const result = await runModelStep(run, messages, calls === 1 ? run.toolChoice : undefined);
    if (result.toolCalls.length === 0) {
      await run.controller.checkpoint();
      return { finishReason: result.finishReason };
    }
    const clientCalls = result.toolCalls.filter((call) => run.clientToolNames.has(call.name));
    if (clientCalls.length > 0) return handOverToClient(run, result, clientCalls);
    // Tools requested by the last allowed call would feed no further model call: the run fails instead.
    if (calls === max) break;
    const assistant: ChatMessage = { role: 'assistant', content: result.text, tool_calls: result.toolCalls };
    messages = [...messages, assistant, ...(await runToolSteps(run, result.toolCalls))];
  }
  throw maxIterationsExceeded(max);
}
