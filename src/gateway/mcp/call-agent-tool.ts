import type { TraceSpan } from '../../telemetry/index.js';
import type { CallToolResult, ProgressToken } from '@modelcontextprotocol/sdk/types.js';
import { CLIENT_CLOSED, type RunHandle, type RunService } from '../../agents/index.js';
import type { RunEvent } from '../../bus/index.js';
import { ownerOf, type Principal } from '../../auth/index.js';
import { isAppError, type AppError } from '../../errors.js';
import { createId } from '../../ids.js';
import type { AgentToolArguments } from './agent-tools.js';
import type { McpCalls } from './mcp-calls.js';

export interface AgentCall {
  agentName: string;
  arguments: AgentToolArguments;
  principal: Principal;
  /** The JSON-RPC id of the `tools/call`: a later `notifications/cancelled` names it. */
  requestId: string | number;
  /** Sent by the client in `_meta`: the run's progress goes out as `notifications/progress` with it. */
  progressToken?: ProgressToken;
  sendProgress(progress: { progress: number; message?: string }): Promise<void>;
  /** Aborted when the client goes away before the answer: the run is cancelled, as when a stream is left. */
  signal: AbortSignal;
  parentSpan?: TraceSpan;
}

export interface CallAgentToolDeps {
  runs: RunService;
  calls: McpCalls;
}

/**
 * One `tools/call` of an agent's tool: a run of the agent in the caller's session (a new one without
 * `session_id`), its progress sent while it streams, and its answer as text with the run id beside it.
 */
export async function callAgentTool(call: AgentCall, { runs, calls }: CallAgentToolDeps): Promise<CallToolResult> {
  const { principal } = call;
  const sessionId = call.arguments.session_id ?? createId('ses');
  let run: RunHandle;
  try {
    run = await runs.start({
      agentName: call.agentName,
      messages: [{ role: 'user', content: call.arguments.message }],
      source: 'mcp',
      sessionId,
      newSession: call.arguments.session_id === undefined,
      parentSpan: call.parentSpan,
      owner: ownerOf(principal),
      tokenId: principal.kind === 'access_token' ? principal.tokenId : undefined,
      tokenMaxCostUsd: principal.kind === 'access_token' ? principal.maxCostUsd : undefined,
    });
  } catch (error) {
    if (isAppError(error)) return mapErrorToResult(error);
    throw error;
  }
  const untrack = calls.track(principal, call.requestId, run);
  const onAbort = () => run.control.cancel(CLIENT_CLOSED());
  call.signal.addEventListener('abort', onAbort, { once: true });
  try {
    if (call.progressToken !== undefined) await sendRunProgress(run, (progress) => call.sendProgress(progress));
    const result = await run.result;
    const ids = { run_id: run.runId, session_id: sessionId };
    if (result.status === 'completed')
      return { content: [{ type: 'text', text: result.output }], structuredContent: { answer: result.output, ...ids } };
    return mapErrorToResult(result.error, ids);
  } finally {
    call.signal.removeEventListener('abort', onAbort);
    untrack();
  }
}

/** Each event a user would notice (text, a tool called, its result) as one progress step. */
async function sendRunProgress(run: AsyncIterable<RunEvent>, send: AgentCall['sendProgress']): Promise<void> {
  let progress = 0;
  for await (const event of run) {
    const message = progressMessageOf(event);
    // A progress notification that cannot go out (client gone) must not end the run's answer.
    if (message !== undefined) await send({ progress: ++progress, message }).catch(() => undefined);
  }
}

function progressMessageOf(event: RunEvent): string | undefined {
  switch (event.type) {
    case 'text-delta':
      return event.delta;
    case 'tool-call':
      return `calling tool ${event.name}`;
    case 'tool-result':
      return `tool ${event.name} ${event.isError ? 'failed' : 'answered'}`;
    default:
      return undefined;
  }
}

/** A run that could not start or did not complete: a tool error the model calling us can read (code and message). */
function mapErrorToResult(error: AppError, ids?: { run_id: string; session_id: string }): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `${error.code}: ${error.message}` }],
    ...(ids && {
      structuredContent: { ...ids, error: { type: error.type, code: error.code, message: error.message } },
    }),
  };
}
