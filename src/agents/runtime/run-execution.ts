import type { RunEventBus } from '../../bus/index.js';
import { AppError, DatabaseUnavailableError, isAppError } from '../../errors.js';
import { isoNow } from '../../ids.js';
import type { ChatMessage, FinishReason, ToolCall } from '../../llm/index.js';
import type { RunBudget } from '../budgets/run-budget.js';
import type { RunController } from '../control/run-control.js';
import type { Logger } from '../../logger.js';
import type { RunWrites } from '../records/run-writes.js';
import type { SessionService } from '../sessions/session.service.js';
import type { RunSetup } from './run-context.js';
import type { RunEventPublisher } from './run-event-publisher.js';
import { gradeAnswer } from './run-guardrails.js';
import type { RunResult } from './run-result.js';
import { runAgentLoop, type LoopOutcome, type LoopStart } from './runtime-loop.js';

/** How a run begins: where its loop starts, or why its input was refused before any model call. */
export type RunStart = { refused: unknown } | { loop: LoopStart; conversation: ChatMessage[] };

export interface RunExecution {
  runId: string;
  setup: RunSetup;
  controller: RunController;
  events: RunEventPublisher;
  writes: RunWrites;
  bus: RunEventBus;
  start: RunStart;
  /** Reserves the run's budgets for its first model call (these messages); undefined when none applies. */
  admit?: (firstCall: ChatMessage[]) => Promise<RunBudget | undefined>;
  /** Set when the run belongs to a session: the turns to store once it completes. */
  session?: { id: string; pending: ChatMessage[]; service: SessionService };
  log?: Logger;
}

/**
 * Runs the loop to its end and grades the answer; publishes the terminal event and writes the run's
 * final record with its event log (and the session's new turns) while its usage records and risk events
 * commit alongside. Never rejects.
 */
export async function executeRun(execution: RunExecution): Promise<RunResult> {
  const { controller, events, setup } = execution;
  const ended = await runLoop(execution);
  const insertError = await execution.writes.inserted.then(
    () => undefined,
    (error: unknown) => {
      execution.log?.error({ err: error, run_id: execution.runId }, 'could not record the run');
      return error;
    },
  );
  // The database stayed out of reach past the write retry: the run (it may have called the model) is still
  // recorded once it is back, failed with database_unavailable, with its usage.
  const late = insertError instanceof DatabaseUnavailableError;
  if (late) execution.writes.insertOnceBack();
  const stored = insertError === undefined || late;
  // An answer nobody could record is not given: the client gets an error instead.
  const result: RunResult =
    insertError === undefined
      ? ended.result
      : summarize(execution, { status: 'failed', error: late ? insertError : unrecorded() });
  // A run that fails while paused (its in-flight call failed) ends at once: what it held goes out first.
  controller.end(result.status);
  events.release();
  const asked = result.status === 'completed' ? askedCall(setup, ended.loop) : undefined;
  if (result.status === 'completed') {
    events.emit({
      type: 'run-end',
      output: result.output,
      totalTokens: result.usage.totalTokens,
      costUsd: result.costUsd,
      ...(asked && { inputRequired: { toolCallId: asked.id, tool: asked.name, arguments: asked.arguments } }),
    });
  } else {
    events.emit({ type: 'run-error', code: result.error.code, message: result.error.message });
  }
  // Not after events.settled(): the log is the publisher's own, and a run's end must not wait out a bus outage
  // (ioredis holds a publish for up to ~40 s before it gives up).
  await Promise.all([
    stored && persistEnd(execution, result, ended.loop, asked !== undefined),
    setup.reporter.settled(),
    persistSteps(execution),
  ]);
  // After the run's cost is stored: an account loaded again from the store must see it.
  await ended.budget?.release();
  return result;
}

/** How a run ended: what its result adds to the run's totals. */
type RunEnding =
  { status: 'completed'; finishReason: FinishReason } | { status: 'failed' | 'cancelled'; error: AppError };

interface LoopEnd {
  result: RunResult;
  loop?: LoopOutcome;
  budget?: RunBudget;
}

/** Admission, the loop and the grading; any failure (or cancellation) becomes the result. */
async function runLoop(execution: RunExecution): Promise<LoopEnd> {
  const { setup, start } = execution;
  let budget: RunBudget | undefined;
  try {
    if ('refused' in start) throw start.refused;
    budget = await execution.admit?.(start.loop.messages);
    // Not `{ ...setup, budget }`: V8 would give each run's context a map of its own, and every step's reads of it
    // would go megamorphic.
    const loop = await runAgentLoop(Object.assign({}, setup, { budget }), start.loop);
    gradeAnswer(setup, execution.events.output);
    return { result: summarize(execution, { status: 'completed', finishReason: loop.finishReason }), loop, budget };
  } catch (error) {
    const cancelled = execution.controller.cancellation;
    const failure = cancelled ?? toAppError(error, execution);
    return { result: summarize(execution, { status: cancelled ? 'cancelled' : 'failed', error: failure }), budget };
  }
}

/** The run's result: its totals, then how it ended (added to the fresh totals, so all results share a V8 map). */
function summarize(execution: RunExecution, ending: RunEnding): RunResult {
  const totals = execution.setup.recorder.totals();
  const usage = {
    inputTokens: totals.inputTokens,
    outputTokens: totals.outputTokens,
    totalTokens: totals.inputTokens + totals.outputTokens,
  };
  // The output is every text the agent said, as streamed: a failed run keeps what it said before failing.
  const summary = {
    runId: execution.runId,
    output: execution.events.output,
    usage,
    costUsd: totals.costUsd,
    steps: totals.steps,
    upstreamMs: execution.setup.timer.upstreamMs,
  };
  return Object.assign(summary, ending);
}

/** The call of a tool that awaits the caller, when the run ended on one. */
function askedCall(setup: RunSetup, loop: LoopOutcome | undefined): ToolCall | undefined {
  return loop?.clientToolCalls?.find((call) => setup.callerToolNames.has(call.name));
}

function unrecorded(): AppError {
  return new AppError({ code: 'internal_error', message: 'The run could not be recorded' });
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
  await execution.setup.recorder.settled().catch((error: unknown) => {
    execution.log?.error({ err: error, run_id: execution.runId }, 'could not record a step of the run');
  });
}

// A failed write must not turn a finished run into a hung request: it is logged and the client still gets its answer.
async function persistEnd(
  execution: RunExecution,
  result: RunResult,
  loop: LoopOutcome | undefined,
  waitsForCaller: boolean,
): Promise<void> {
  const failed = result.status === 'completed' ? undefined : result.error;
  try {
    // Every event the run made, whether the bus took it or not (a takeover's earlier ones first).
    const events = execution.events.log();
    // A completed run's turns commit with its end, in one transaction (one group commit on SQLite).
    const session = execution.session;
    const turns =
      session && result.status === 'completed'
        ? session.service.appendWrite(session.id, [...session.pending, answerOf(result, loop)])
        : undefined;
    await execution.writes.finish(
      {
        // The run's part is done either way; `input_required` tells an operator it stopped to ask its caller.
        status: waitsForCaller ? 'input_required' : result.status,
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
      turns,
    );
  } catch (error) {
    execution.log?.error({ err: error, run_id: execution.runId }, 'could not record the end of the run');
  }
}

function answerOf(result: RunResult, loop: LoopOutcome | undefined): ChatMessage {
  const toolCalls = loop?.clientToolCalls;
  return toolCalls
    ? { role: 'assistant', content: result.output, tool_calls: toolCalls }
    : { role: 'assistant', content: result.output };
}
