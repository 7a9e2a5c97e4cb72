import { AppError, type ErrorCode, type ToolErrorCode } from '../../errors.js';
import type { ChatMessage, ToolCall, ToolDefinition } from '../../llm/index.js';
import { endToolSpan, startToolSpan, type TraceSpan } from '../../telemetry/index.js';
import { ToolExecutionError, type ToolRegistry } from '../../tools/index.js';
import type { RunControl } from '../control/run-control.js';
import type { RunRecorder } from '../records/run-recorder.js';
import type { RunEventPublisher } from './run-event-publisher.js';

/** What a tool step uses of its run (runtime/run.ts). */
export interface ToolStepRun {
  /** Tools that keep state per run (delegate_to_agent's remote contexts) key it by this. */
  readonly runId: string;
  readonly tools: ToolRegistry;
  /** The tools offered to the model: only these ever run. */
  readonly toolDefinitions: ToolDefinition[];
  readonly controller: RunControl;
  readonly recorder: RunRecorder;
  readonly trace: TraceSpan | undefined;
  readonly events: Pick<RunEventPublisher, 'emit'>;
  /** The process left and handed the run on: an aborted call is not recorded here. */
  readonly handedOver: boolean;
}

type ToolMessage = Extract<ChatMessage, { role: 'tool' }>;

/** What a failed tool step records: a tool error code, or the run's own error (a cancellation) when it ended the call. */
interface ToolFailure {
  code: ToolErrorCode | ErrorCode;
  message: string;
}

/**
 * One tool call. A failing tool does not fail the run: its error becomes the tool result the model
 * reads. Only cancellation propagates.
 */
export async function runToolStep(run: ToolStepRun, call: ToolCall): Promise<ToolMessage> {
  await run.controller.checkpoint();
  const step = run.recorder.begin('tool', call.name);
  run.events.emit({ type: 'step-start', stepId: step.stepId, stepIndex: step.stepIndex, kind: 'tool' });
  run.events.emit({ type: 'tool-call', toolCallId: call.id, name: call.name, arguments: call.arguments });
  let result: string;
  let failure: ToolFailure | undefined;
  const span = startToolSpan({ name: call.name, callId: call.id, arguments: call.arguments }, run.trace);
  try {
    result = await executeTool(run, call, span);
    endToolSpan(span, { stepId: step.stepId, result });
  } catch (error) {
    failure = toolFailure(call.name, error);
    endToolSpan(span, { stepId: step.stepId, error });
    if (run.controller.signal.aborted) {
      // Handed on: unrecorded, as after a crash (the next owner runs it again, or tells the model it was cut).
      if (run.handedOver) throw run.controller.signal.reason;
      run.recorder.end(step, {
        status: 'failed',
        promptLog: { tool_call_id: call.id, arguments: call.arguments, error: failure },
      });
      throw run.controller.signal.reason;
    }
    result = `Error: ${failure.message}`;
  }
  run.events.emit({
    type: 'tool-result',
    toolCallId: call.id,
    name: call.name,
    result,
    isError: failure !== undefined,
  });
  const promptLog = failure
    ? { tool_call_id: call.id, arguments: call.arguments, error: failure }
    : { tool_call_id: call.id, arguments: call.arguments, result };
  run.recorder.end(step, { status: failure ? 'failed' : 'completed', promptLog });
  return { role: 'tool', content: result, tool_call_id: call.id, name: call.name };
}

async function executeTool(run: ToolStepRun, call: ToolCall, span: TraceSpan): Promise<string> {
  // The model may name any tool; only the agent's own tools ever run.
  if (!run.toolDefinitions.some((tool) => tool.name === call.name)) {
    const available = run.toolDefinitions.map((tool) => tool.name).join(', ') || 'none';
    throw new ToolExecutionError(`unknown tool "${call.name}" (available: ${available})`, 'unknown_tool');
  }
  let args: unknown;
  try {
    args = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
  } catch (error) {
    throw new ToolExecutionError(
      `the arguments of ${call.name} are not valid JSON: ${(error as Error).message}`,
      'invalid_arguments',
    );
  }
  return run.tools.execute(call.name, args, { signal: run.controller.signal, runId: run.runId, trace: span });
}

/** Only catalog codes reach the run's record (docs/api.md lists them); anything else a tool threw is `failed`. */
function toolFailure(name: string, error: unknown): ToolFailure {
  if (error instanceof ToolExecutionError || error instanceof AppError)
    return { code: error.code, message: error.message };
  return {
    code: 'failed',
    message: `Tool "${name}" failed: ${error instanceof Error ? error.message : String(error)}`,
  };
}
