import type { RunEventBus } from '../../bus/index.js';
import { AppError, isAppError } from '../../errors.js';
import { isoNow } from '../../ids.js';
import type { ChatMessage } from '../../llm/index.js';
import type { RunBudget } from '../budgets/run-budget.js';
import type { RunController } from '../control/run-control.js';
import type { RunContext } from './run-context.js';
import type { RunEventPublisher } from './run-event-publisher.js';
import { gradeAnswer, screenInput } from './run-guardrails.js';
import type { RunResult } from './run-result.js';
import type { RunStore } from '../records/run.store.js';
import { runAgentLoop, type LoopOutcome } from './runtime-loop.js';
import type { SessionService } from '../sessions/session.service.js';
import type { RunLogger } from '../records/run-logger.js';

/** The slice of a pino logger the runtime uses. */
export interface RunExecution {
  runId: string;
  ctx: RunContext;
  conversation: ChatMessage[];
  controller: RunController;
  store: RunStore;
  bus: RunEventBus;
  events: RunEventPublisher;
  /** Set when the run belongs to a session: the turns to store once it completes. */
  session?: { id: string; pending: ChatMessage[]; service: SessionService };
  /** Reserves the run's budgets once its input passed the guardrails, before the first model call. */
  admit?: (conversation: ChatMessage[]) => Promise<RunBudget | undefined>;
  log?: RunLogger;
  /** The run's insert, queued at start: the run's end is written, and its answer given, only after it. */
  inserted: Promise<void>;
}

/**
 * Screens the input, admits the run to its budgets, runs the loop to its end and grades the answer;
 * publishes the terminal event, then writes the run's final record with its event log (and the
 * session's new turns) while its usage records and risk events commit alongside.
 */
export async function executeRun(execution: RunExecution): Promise<RunResult> {
  const { controller, events, ctx } = execution;
  let result: RunResult;
  let loop: LoopOutcome | undefined;
  try {
    loop = await runAgentLoop(ctx, await prepareInput(execution));
    gradeAnswer(ctx, events.output);
    result = { ...summarize(execution), status: 'completed', finishReason: loop.finishReason };
  } catch (error) {
    const cancelled = controller.cancellation;
    result = {
      ...summarize(execution),
      status: cancelled ? 'cancelled' : 'failed',
      error: cancelled ?? toAppError(error, execution),
    };
  }
  const stored = await execution.inserted.then(
    () => true,
    (error: unknown) => {
      execution.log?.error({ err: error, run_id: execution.runId }, 'could not record the run');
      return false;
    },
  );
  // An answer nobody could record is not given: the client gets an error instead.
  if (!stored)
    result = {
      ...summarize(execution),
      status: 'failed',
      error: new AppError({
        code: 'internal_error',
        message: 'The run could not be recorded',
      }),
    };
  // A run that fails while paused (its in-flight call failed) ends at once: what it held goes out first.
  controller.end(result.status);
  events.release();
  if (result.status === 'completed') {
    events.emit({
      type: 'run-end',
      output: result.output,
      totalTokens: result.usage.totalTokens,
      costUsd: result.costUsd,
    });
  } else {
    events.emit({ type: 'run-error', code: result.error.code, message: result.error.message });
  }
  await events.settled();
  await Promise.all([stored && persistEnd(execution, result, loop), ctx.reporter.settled(), persistSteps(execution)]);
  // After the run's cost is stored: an account loaded again from the store must see it.
  await ctx.budget?.release({ completed: result.status === 'completed', costUsd: result.costUsd });
  return result;
}

/** The conversation as the model may see it (user messages of this request redacted), after budget admission. */
async function prepareInput(execution: RunExecution): Promise<ChatMessage[]> {
  const { ctx, session } = execution;
  const replaced = screenInput(ctx, session ? session.pending : execution.conversation);
  const swap = (message: ChatMessage) => replaced.get(message) ?? message;
  // The session stores the redacted turns too, so personal data never reaches its history.
  if (session && replaced.size > 0) session.pending = session.pending.map(swap);
  const conversation = replaced.size > 0 ? execution.conversation.map(swap) : execution.conversation;
  ctx.budget = await execution.admit?.(conversation);
  return conversation;
}

function summarize(execution: RunExecution) {
  const totals = execution.ctx.recorder.totals();
  const usage = {
    inputTokens: totals.inputTokens,
    outputTokens: totals.outputTokens,
    totalTokens: totals.inputTokens + totals.outputTokens,
  };
  // The output is every text the agent said, as streamed: a failed run keeps what it said before failing.
  return {
    runId: execution.runId,
    output: execution.events.output,
    usage,
    costUsd: totals.costUsd,
    steps: totals.steps,
    upstreamMs: execution.ctx.timing.upstreamMs,
  };
}

function toAppError(error: unknown, execution: RunExecution): AppError {
  if (isAppError(error)) return error;
  execution.log?.error({ err: error, run_id: execution.runId }, 'run failed unexpectedly');
  return new AppError({
    code: 'internal_error',
    message: 'The run failed with an internal error',
    cause: error,
  });
}

// Steps were queued as they ended; a failed one is logged like a failed run end.
async function persistSteps(execution: RunExecution): Promise<void> {
  await execution.ctx.recorder.settled().catch((error: unknown) => {
    execution.log?.error({ err: error, run_id: execution.runId }, 'could not record a step of the run');
  });
}

// A failed write must not turn a finished run into a hung request: it is logged and the client still gets its answer.
async function persistEnd(execution: RunExecution, result: RunResult, loop: LoopOutcome | undefined): Promise<void> {
  const failed = result.status === 'completed' ? undefined : result.error;
  try {
    const events = await execution.bus.history(execution.runId).catch((error: unknown) => {
      execution.log?.warn({ err: error, run_id: execution.runId }, 'could not read the run event log to persist it');
      return [];
    });
    await execution.store.finishRun(
      execution.runId,
      {
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
      },
      events,
    );
    const session = execution.session;
    if (session && result.status === 'completed') {
      const toolCalls = loop?.clientToolCalls;
      const answer: ChatMessage = toolCalls
        ? { role: 'assistant', content: result.output, tool_calls: toolCalls }
        : { role: 'assistant', content: result.output };
      await session.service.append(session.id, [...session.pending, answer]);
    }
  } catch (error) {
    execution.log?.error({ err: error, run_id: execution.runId }, 'could not record the end of the run');
  }
}
