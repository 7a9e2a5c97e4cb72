import { AppError, isAppError } from '../errors.js';
import { isoNow } from '../ids.js';
import type { ChatMessage } from '../llm/index.js';
import type { RunController } from './run-control.js';
import type { RunContext } from './run-context.js';
import type { RunEventLog } from './run-event-log.js';
import type { RunResult } from './run-result.js';
import type { RunStore } from './run.store.js';
import { runAgentLoop } from './runtime-loop.js';
import type { SessionService } from './session.service.js';

/** The slice of a pino logger the runtime uses. */
export interface RunLogger {
  error(details: object, message: string): void;
}

export interface RunExecution {
  runId: string;
  ctx: RunContext;
  conversation: ChatMessage[];
  controller: RunController;
  store: RunStore;
  events: RunEventLog;
  /** Set when the run belongs to a session: the turns to store once it completes. */
  session?: { id: string; pending: ChatMessage[]; service: SessionService };
  log?: RunLogger;
}

/** Runs the loop to its end, writes the run's final record (and session turns), then emits the terminal event. */
export async function executeRun(execution: RunExecution): Promise<RunResult> {
  // The output is every text the agent said, as streamed: a failed run keeps what it said before failing.
  let output = '';
  const unsubscribe = execution.events.subscribe((event) => {
    if (event.type === 'text-delta') output += event.delta;
  });
  let result: RunResult;
  try {
    const loop = await runAgentLoop(execution.ctx, execution.conversation);
    result = { ...summarize(execution, output), status: 'completed', finishReason: loop.finishReason };
  } catch (error) {
    const cancelled = execution.controller.cancellation;
    result = { ...summarize(execution, output), status: cancelled ? 'cancelled' : 'failed', error: cancelled ?? toAppError(error, execution) };
  }
  unsubscribe();
  await persistEnd(execution, result);
  if (result.status === 'completed') {
    execution.events.emit({ type: 'run-end', output: result.output, totalTokens: result.usage.totalTokens, costUsd: result.costUsd });
  } else {
    execution.events.emit({ type: 'run-error', code: result.error.code, message: result.error.message });
  }
  return result;
}

function summarize(execution: RunExecution, output: string) {
  const totals = execution.ctx.recorder.totals();
  const usage = { inputTokens: totals.inputTokens, outputTokens: totals.outputTokens, totalTokens: totals.inputTokens + totals.outputTokens };
  return { runId: execution.runId, output, usage, costUsd: totals.costUsd, steps: totals.steps };
}

function toAppError(error: unknown, execution: RunExecution): AppError {
  if (isAppError(error)) return error;
  execution.log?.error({ err: error, run_id: execution.runId }, 'run failed unexpectedly');
  return new AppError({ type: 'server_error', code: 'internal_error', status: 500, message: 'The run failed with an internal error', cause: error });
}

// A failed write must not turn a finished run into a hung request: it is logged and the client still gets its answer.
async function persistEnd(execution: RunExecution, result: RunResult): Promise<void> {
  const failed = result.status === 'completed' ? undefined : result.error;
  try {
    await execution.store.finishRun(execution.runId, {
      status: result.status,
      finished_at: isoNow(),
      total_tokens: result.usage.totalTokens,
      input_tokens: result.usage.inputTokens,
      output_tokens: result.usage.outputTokens,
      cost_usd: result.costUsd,
      steps: result.steps,
      output: result.output,
      error_code: failed?.code ?? null,
      error_message: failed?.message ?? null,
    });
    const session = execution.session;
    if (session && result.status === 'completed') {
      await session.service.append(session.id, [...session.pending, { role: 'assistant', content: result.output }]);
    }
  } catch (error) {
    execution.log?.error({ err: error, run_id: execution.runId }, 'could not record the end of the run');
  }
}
