import { createId, isoNow } from '../../ids.js';
import {
  endRunSpan,
  linksTo,
  recordSpanError,
  setRunId,
  spanTraceId,
  startRunSpan,
  type TraceSpan,
} from '../../telemetry/index.js';
import type { ChatMessage } from '../../llm/index.js';
import { AppError, DatabaseUnavailableError } from '../../errors.js';
import type { LiveRun, StartRunRequest } from '../control/run-handle.js';
import type { RegisteredAgent } from '../registry/agent-registry.js';
import { createRunWrites } from '../records/run-writes.js';
import type { NewRunRecord, ResumeInput } from '../records/run.types.js';
import { openRun, type RunSettings, type RuntimeDeps } from './open-run.js';
import type { RunSetup } from './run-context.js';
import { executeRun, type RunStart } from './run-execution.js';
import { screenInput } from './run-guardrails.js';
import { firstLoopStart } from './runtime-loop.js';

/**
 * A run from insert to end: records the run, publishes run-start, screens the input, then executes it
 * (run-execution.ts) without waiting; resolves once the run is stored. Throws before that for an unknown
 * agent (404), another principal's session (404) or a session of another agent (409).
 */
export async function startRun(deps: RuntimeDeps, request: StartRunRequest): Promise<LiveRun> {
  // The run's `invoke_agent` span, a child of the request's: its model and tool calls are the span's children.
  const span = startRunSpan(
    {
      agentName: request.agentName,
      source: request.source,
      sessionId: request.sessionId,
      links: linksTo(request.traceparent),
    },
    request.parentSpan,
  );
  let run: LiveRun;
  try {
    run = await openNewRun(deps, request, span);
  } catch (error) {
    recordSpanError(span, error);
    span.end();
    throw error;
  }
  setRunId(span, run.runId);
  void run.handle.result.then((result) =>
    endRunSpan(span, {
      runId: result.runId,
      status: result.status,
      costUsd: result.costUsd,
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
      finishReason: result.status === 'completed' ? result.finishReason : undefined,
      error: result.status === 'completed' ? undefined : result.error,
    }),
  );
  return run;
}

async function openNewRun(deps: RuntimeDeps, request: StartRunRequest, span: TraceSpan): Promise<LiveRun> {
  const agent = deps.agents.get(request.agentName);
  // A session id generated for this request has nothing stored to check or merge: its session is created
  // with the run's insert below instead of being upserted and read back first.
  const created =
    request.sessionId && request.newSession
      ? deps.sessions.create(request.sessionId, agent.name, sessionOwner(request))
      : undefined;
  const merged =
    request.sessionId && !created
      ? await deps.sessions.open(request.sessionId, agent.name, sessionOwner(request), request.messages)
      : undefined;
  const conversation = merged?.conversation ?? request.messages;
  const runId = createId('run');
  const settings = runSettings(agent, request, conversation);
  const writes = createRunWrites(deps.runStore, runId);
  const run = openRun(deps, { runId, agent, settings, writes, signal: request.signal, trace: span });
  run.events.emit({
    type: 'run-start',
    agentName: agent.name,
    model: agent.model,
    source: settings.source,
    sessionId: settings.sessionId,
  });
  // A new session's turns are the whole request, as merging with an empty history gives.
  const screened = screen(run.setup, conversation, created ? request.messages : merged?.pending);
  // The first model call starts while the insert commits; startRun resolves only after it, so nobody
  // outside learns of a run that is not stored. A new session commits with it, ahead of it.
  writes.insert(
    initialRecord(runId, agent, request, spanTraceId(span)),
    deps.durable ? resumeInput(settings, screened) : undefined,
    created?.insert,
  );
  const budgets = deps.budgets;
  const result = executeRun({
    runId,
    setup: run.setup,
    controller: run.controller,
    events: run.events,
    writes,
    bus: deps.bus,
    start: screened.start,
    admit:
      budgets &&
      ((messages: ChatMessage[]) =>
        budgets.admit({
          runId,
          agent,
          messages,
          tools: run.setup.toolDefinitions,
          maxTokens: settings.maxTokens,
          tokenId: request.tokenId,
          tokenMaxCostUsd: request.tokenMaxCostUsd,
        })),
    session:
      request.sessionId && screened.pending
        ? { id: request.sessionId, pending: screened.pending, service: deps.sessions }
        : undefined,
    log: run.log,
  });
  try {
    await writes.inserted;
  } catch (error) {
    // A database out of reach says so (503 database_unavailable); anything else is ours.
    run.controller.cancel(
      error instanceof AppError
        ? error
        : new AppError({ code: 'internal_error', message: 'The run could not be recorded' }),
    );
    // That run is recorded once the database is back (run-execution.ts): its client is answered now.
    if (!(error instanceof DatabaseUnavailableError)) await result;
    throw error;
  }
  return run.toLive(result);
}

/** Every authenticated route passes its principal; only callers without one (tests mounting routes bare) share `anonymous`. */
function sessionOwner(request: StartRunRequest): string {
  return request.owner ?? 'anonymous';
}

function runSettings(agent: RegisteredAgent, request: StartRunRequest, conversation: ChatMessage[]): RunSettings {
  // The client's own tool results and context are sources an answer may rightly draw on.
  const clientSources = conversation.flatMap((message) => (message.role === 'tool' ? [message.content] : []));
  return {
    source: request.source,
    sessionId: request.sessionId ?? null,
    temperature: request.temperature ?? agent.temperature,
    maxTokens: request.maxTokens ?? agent.max_tokens,
    clientTools: request.clientTools ?? [],
    context: request.context ?? [],
    sources: [...(request.context ?? []), ...clientSources],
  };
}

/**
 * The conversation as the model may see it: user messages of this request redacted by the input
 * guardrails, or refused (the run then fails before any model call). A session stores the redacted turns
 * too, so personal data never reaches its history.
 */
function screen(
  setup: RunSetup,
  conversation: ChatMessage[],
  pending: ChatMessage[] | undefined,
): { start: RunStart; pending?: ChatMessage[] } {
  let replaced: Map<ChatMessage, ChatMessage>;
  try {
    replaced = screenInput(setup, pending ?? conversation);
  } catch (error) {
    return { start: { refused: error }, pending };
  }
  const swap = (message: ChatMessage) => replaced.get(message) ?? message;
  const screened = replaced.size > 0 ? conversation.map(swap) : conversation;
  return {
    start: { loop: firstLoopStart(setup.agent, screened), conversation: screened },
    pending: pending && replaced.size > 0 ? pending.map(swap) : pending,
  };
}

/** What a takeover reads back to continue the run; a refused input leaves nothing to resume. */
function resumeInput(settings: RunSettings, screened: ReturnType<typeof screen>): ResumeInput | undefined {
  if ('refused' in screened.start) return undefined;
  return {
    messages: screened.start.conversation,
    temperature: settings.temperature,
    max_tokens: settings.maxTokens ?? null,
    client_tools: settings.clientTools,
    context: settings.context,
    session_pending: screened.pending ?? null,
  };
}

function initialRecord(
  runId: string,
  agent: RegisteredAgent,
  request: StartRunRequest,
  traceId: string | null,
): NewRunRecord {
  return {
    run_id: runId,
    agent_name: agent.name,
    status: 'running',
    source: request.source,
    session_id: request.sessionId ?? null,
    model: agent.model,
    started_at: isoNow(),
    finished_at: null,
    total_tokens: 0,
    input_tokens: 0,
    output_tokens: 0,
    cost_usd: 0,
    steps: 0,
    output: null,
    error_code: null,
    error_message: null,
    token_id: request.tokenId ?? null,
    trace_id: traceId ?? null,
    triggered_by: request.triggeredBy ?? null,
  };
}
