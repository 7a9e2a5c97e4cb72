import { AppError, DatabaseUnavailableError, ValidationError } from '../../errors.js';
import type { GuardrailVerdict } from '../../guardrails/index.js';
import { createId, isoNow } from '../../ids.js';
import { assertOptionsSupported, type ChatMessage } from '../../llm/index.js';
import {
  endRunSpan,
  linksTo,
  recordSpanError,
  setRunId,
  spanTraceId,
  startRunSpan,
  type TraceSpan,
} from '../../telemetry/index.js';
import { createRunWrites } from '../records/run-writes.js';
import type { NewRunRecord, ResumeInput } from '../records/run.types.js';
import type { StartRunRequest } from '../control/run-handle.js';
import { checkClientTools } from './check-client-tools.js';
import { conversationStart, Run, type RunSettings, type RunStart, type RuntimeDeps } from './run.js';

/**
 * A new run, from insert to end: opens its span, records the run, publishes run-start, screens the input,
 * then executes it without waiting; resolves once the run is stored. Throws before that for an unknown
 * agent (404), another principal's session (404) or a session of another agent (409).
 */
export async function startRun(deps: RuntimeDeps, request: StartRunRequest): Promise<Run> {
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
  let run: Run;
  try {
    run = await openRun(deps, request, span);
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

async function openRun(deps: RuntimeDeps, request: StartRunRequest, span: TraceSpan): Promise<Run> {
  const agent = deps.agents.get(request.agentName);
  // An option the agent's provider cannot honour is refused before anything is stored.
  if (request.callOptions) assertOptionsSupported(deps.models.describe(agent.model), request.callOptions);
  if (request.clientTools?.length || request.toolChoice !== undefined) {
    const own = agent.tools.length > 0 ? deps.tools.forAgent(agent.tools) : [];
    checkClientTools(agent.name, own, request.clientTools ?? [], request.toolChoice);
  }
  // Every authenticated route passes its principal; only callers without one (tests mounting routes bare) share `anonymous`.
  const owner = request.owner ?? 'anonymous';
  // A session id generated for this request has nothing stored to check or merge: its session is created
  // with the run's insert below instead of being upserted and read back first.
  const created =
    request.sessionId && request.newSession ? deps.sessions.create(request.sessionId, agent.name, owner) : undefined;
  const merged =
    request.sessionId && !created
      ? await deps.sessions.open(request.sessionId, agent.name, owner, request.messages, request.sessionNamed)
      : undefined;
  const conversation = merged?.conversation ?? request.messages;
  const id = createId('run');
  const settings: RunSettings = {
    source: request.source,
    sessionId: request.sessionId ?? null,
    temperature: request.temperature ?? agent.temperature,
    maxTokens: request.maxTokens ?? agent.max_tokens,
    callOptions: request.callOptions,
    clientTools: request.clientTools ?? [],
    toolChoice: request.toolChoice,
    parallelToolCalls: request.parallelToolCalls,
    context: request.context ?? [],
    tokenId: request.tokenId,
    tokenMaxCostUsd: request.tokenMaxCostUsd,
    mission: request.mission,
    endUser: request.endUser,
  };
  const writes = createRunWrites(deps.runStore, id);
  const history =
    request.sessionId && merged && merged.history.length > 0
      ? { sessionId: request.sessionId, messages: merged.history }
      : undefined;
  const run = new Run(deps, { id, agent, settings, writes, signal: request.signal, trace: span, history });
  run.events.emit({
    type: 'run-start',
    agentName: agent.name,
    model: agent.model,
    source: settings.source,
    sessionId: settings.sessionId,
  });
  // A new session's turns are the whole request, as merging with an empty history gives.
  const screened = screen(run, conversation, created ? request.messages : merged?.pending);
  const start: RunStart = screened.refused
    ? { refused: screened.refused }
    : {
        loop: conversationStart(agent, screened.conversation, request.instructions),
        conversation: screened.conversation,
        session:
          request.sessionId && screened.pending ? { id: request.sessionId, pending: screened.pending } : undefined,
      };
  // The first model call starts while the insert commits; startRun resolves only after it, so nobody
  // outside learns of a run that is not stored. A new session commits with it, ahead of it.
  writes.insert(
    initialRecord(id, request, run, spanTraceId(span)),
    deps.durable && !screened.refused
      ? resumeInput(
          settings,
          screened.conversation,
          screened.pending,
          request.instructions,
          history?.messages.length ?? 0,
        )
      : undefined,
    created?.insert,
  );
  const result = run.execute(start);
  try {
    await writes.inserted;
  } catch (error) {
    // A database out of reach says so (503 database_unavailable); anything else is ours.
    run.controller.cancel(
      error instanceof AppError
        ? error
        : new AppError({ code: 'internal_error', message: 'The run could not be recorded' }),
    );
    // That run is recorded once the database is back (run.ts): its client is answered now.
    if (!(error instanceof DatabaseUnavailableError)) await result;
    throw error;
  }
  return run;
}

/**
 * The conversation as the model may see it: user messages of this request redacted by the input
 * guardrails, or refused (the run then fails before any model call). A session stores the redacted turns
 * too, so personal data never reaches its history.
 */
function screen(
  { guardrails, reporter }: Pick<Run, 'guardrails' | 'reporter'>,
  conversation: ChatMessage[],
  pending: ChatMessage[] | undefined,
): { conversation: ChatMessage[]; pending?: ChatMessage[]; refused?: unknown } {
  if (!guardrails) return { conversation, pending };
  const replaced = new Map<ChatMessage, ChatMessage>();
  for (const message of pending ?? conversation) {
    if (message.role !== 'user') continue;
    const result = guardrails.checkInput(message.content);
    reporter.flag(result.verdicts);
    if (result.blocked) {
      const refused = new ValidationError(
        `The input was refused by the guardrails (${describeBlock(result.verdicts)})`,
        'content_filtered',
      );
      return { conversation, pending, refused };
    }
    if (result.text !== message.content) replaced.set(message, { ...message, content: result.text });
  }
  if (replaced.size === 0) return { conversation, pending };
  const swap = (message: ChatMessage) => replaced.get(message) ?? message;
  return { conversation: conversation.map(swap), pending: pending?.map(swap) };
}

function describeBlock(verdicts: readonly GuardrailVerdict[]): string {
  const blocking = verdicts.filter((verdict) => verdict.action === 'block');
  return [...new Set(blocking.map((verdict) => `${verdict.type}: ${verdict.entity}`))].join(', ');
}

/** What a takeover reads back to continue the run. */
function resumeInput(
  settings: RunSettings,
  conversation: ChatMessage[],
  pending: ChatMessage[] | undefined,
  instructions: string | undefined,
  sessionHistory: number,
): ResumeInput {
  return {
    // The session's stored turns are not copied: a takeover reads them back (take-over-run.ts).
    messages: conversation.slice(sessionHistory),
    ...(sessionHistory > 0 && { session_history: sessionHistory }),
    ...(instructions && { instructions }),
    temperature: settings.temperature,
    max_tokens: settings.maxTokens ?? null,
    ...(settings.callOptions && { call_options: settings.callOptions }),
    client_tools: settings.clientTools,
    tool_choice: settings.toolChoice ?? null,
    parallel_tool_calls: settings.parallelToolCalls ?? null,
    context: settings.context,
    session_pending: pending ?? null,
  };
}

function initialRecord(id: string, request: StartRunRequest, run: Run, traceId: string | null): NewRunRecord {
  return {
    run_id: id,
    agent_name: run.agent.name,
    status: 'running',
    source: request.source,
    session_id: request.sessionId ?? null,
    model: run.agent.model,
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
    trace_id: traceId,
    triggered_by: request.triggeredBy ?? null,
    end_user: request.endUser ?? null,
  };
}
