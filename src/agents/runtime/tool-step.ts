import { AppError, type ErrorCode, type ToolErrorCode } from '../../errors.js';
import type { ChatMessage, ToolCall } from '../../llm/index.js';

import { endToolSpan, startToolSpan, type TraceSpan } from '../../telemetry/index.js';
import { ToolExecutionError } from '../../tools/index.js';
import type { RunContext } from './run-context.js';

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
export async function runToolStep(ctx: RunContext, call: ToolCall): Promise<ToolMessage> {
  await ctx.control.checkpoint();
  const step = ctx.recorder.begin('tool', call.name);
  ctx.emit({ type: 'step-start', stepId: step.stepId, stepIndex: step.stepIndex, kind: 'tool' });
  ctx.emit({ type: 'tool-call', toolCallId: call.id, name: call.name, arguments: call.arguments });
  let result: string;
  let failure: ToolFailure | undefined;
  const span = startToolSpan({ name: call.name, callId: call.id, arguments: call.arguments }, ctx.trace);
  try {
    result = await executeTool(ctx, call, span);
    endToolSpan(span, { stepId: step.stepId, result });
  } catch (error) {
    failure = toolFailure(call.name, error);
    endToolSpan(span, { stepId: step.stepId, error });
    if (ctx.control.signal.aborted) {
      ctx.recorder.end(step, {
        status: 'failed',
        promptLog: { tool_call_id: call.id, arguments: call.arguments, error: failure },
      });
      throw ctx.control.signal.reason;
    }
    result = `Error: ${failure.message}`;
  }
  ctx.emit({ type: 'tool-result', toolCallId: call.id, name: call.name, result, isError: failure !== undefined });
  if (!failure) ctx.sources.push(result);
  const promptLog = failure
    ? { tool_call_id: call.id, arguments: call.arguments, error: failure }
    : { tool_call_id: call.id, arguments: call.arguments, result };
  ctx.recorder.end(step, { status: failure ? 'failed' : 'completed', promptLog });
  return { role: 'tool', content: result, tool_call_id: call.id, name: call.name };
}

async function executeTool(ctx: RunContext, call: ToolCall, span: TraceSpan): Promise<string> {
  // The model may name any tool; only the agent's own tools ever run.
  if (!ctx.toolDefinitions.some((tool) => tool.name === call.name)) {
    const available = ctx.toolDefinitions.map((tool) => tool.name).join(', ') || 'none';
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
  return ctx.tools.execute(call.name, args, { signal: ctx.control.signal, runId: ctx.runId, trace: span });
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
