import type { Logger } from '../../logger.js';
import type { TraceSpan } from '../../telemetry/index.js';
import { isAppError, type ErrorCode } from '../../errors.js';
import type { RunEventBody } from '../../bus/index.js';
import type { Guardrails } from '../../guardrails/index.js';
import type { ModelClient, ToolDefinition } from '../../llm/index.js';
import type { ToolRegistry } from '../../tools/index.js';
import type { RegisteredAgent } from '../registry/agent-registry.js';
import type { RunBudget } from '../budgets/run-budget.js';
import type { RunControl } from '../control/run-control.js';
import type { RunRecorder } from '../records/run-recorder.js';
import type { RunReporter } from '../records/run-reporter.js';
import type { RunFlow } from './run-flow.js';
import type { RunTimer } from './run-timer.js';

/** Everything one run needs before its budget is known; built once per run by startRun (or resumeRun). */
export interface RunSetup {
  /** Tools that keep state per run (delegate_to_agent's remote contexts) key it by this. */
  readonly runId: string;
  readonly agent: RegisteredAgent;
  readonly models: ModelClient;
  readonly tools: ToolRegistry;
  /** The agent's tools, then the client's, as the model sees them. */
  readonly toolDefinitions: ToolDefinition[];
  /** Tools the client runs itself (frontend tools): a call to one ends the run instead of running here. */
  readonly clientToolNames: ReadonlySet<string>;
  /** Client tools whose call waits for the caller's answer: the run ends `input_required`. */
  readonly callerToolNames: ReadonlySet<string>;
  readonly temperature: number;
  readonly maxTokens?: number;
  readonly control: RunControl;
  readonly recorder: RunRecorder;
  /** Usage records and guardrail hits, committed in the background and awaited with the run's end. */
  readonly reporter: RunReporter;
  /** The agent's compiled guardrails; undefined when all are off. */
  readonly guardrails?: Guardrails;
  /** What an answer is graded against: tool results (the run's and the client's) and client context. */
  readonly sources: string[];
  readonly timer: RunTimer;
  /**
   * runs.resume: before each model and tool call, the steps ended so far are stored, so a replica taking
   * the run over continues after them instead of repeating them.
   */
  readonly durable: boolean;
  /** Clients streaming the run: the model step waits on it before reading more of the upstream. */
  readonly flow?: RunFlow;
  /** The run's `invoke_agent` span, parent of its model and tool calls' spans; undefined when not traced. */
  readonly trace?: TraceSpan;
  /** The run's logger: its lines carry the run's trace ids when it is traced. */
  readonly log?: Logger;
  emit(body: RunEventBody): void;
}

/** What the loop, the model step and the tool step see: the setup and the budget the run was admitted to. */
export interface RunContext extends RunSetup {
  /** Undefined when no budget applies to the run. */
  readonly budget: RunBudget | undefined;
}

/**
 * The code and message a failed model step records: the run's cancellation when the call was aborted, else
 * an AppError's own, else `internal_error` (as the run reports it) with the error's message for the operator.
 */
export function describeError(error: unknown, signal?: AbortSignal): { code: ErrorCode; message: string } {
  // The client reports an aborted call as its own failure (upstream_error); the run's cancellation is the cause.
  if (signal?.aborted && isAppError(signal.reason)) return { code: signal.reason.code, message: signal.reason.message };
  if (isAppError(error)) return { code: error.code, message: error.message };
  return { code: 'internal_error', message: error instanceof Error ? error.message : String(error) };
}

/** Waits until the steps ended so far are stored (durable runs); a failed write is reported at the run's end. */
export async function storeCheckpoint(ctx: RunSetup): Promise<void> {
  if (ctx.durable) await ctx.recorder.settled().catch(() => undefined);
}
