import type { RunEvent, RunEventBus } from '../../bus/index.js';
import { AppError } from '../../errors.js';
import { createId, isoNow } from '../../ids.js';
import type { ChatMessage, ModelClient, ToolDefinition } from '../../llm/index.js';
import type { ToolRegistry } from '../../tools/index.js';
import type { GuardrailsFor } from '../registry/agent-guardrails.js';
import type { AgentRegistry, RegisteredAgent } from '../registry/agent-registry.js';
import type { RunBudgets } from '../budgets/run-budget.js';
import type { RunContext } from './run-context.js';
import { createRunControl } from '../control/run-control.js';
import { createRunEventPublisher } from './run-event-publisher.js';
import { createRunFlow } from './run-flow.js';
import { executeRun } from './run-execution.js';
import type { RunLogger } from '../records/run-logger.js';
import type { LiveRun, StartRunRequest } from '../control/run-handle.js';
import { createRunRecorder, type RunPricing } from '../records/run-recorder.js';
import { createRunReporter } from '../records/run-reporter.js';
import type { RunResult } from './run-result.js';
import type { RunStore } from '../records/run.store.js';
import type { RunRecord } from '../records/run.types.js';
import type { SessionService } from '../sessions/session.service.js';
import type { UsageSink } from '../records/usage-sink.js';

export interface StartRunDeps {
  agents: AgentRegistry;
  models: ModelClient;
  tools: ToolRegistry;
  runStore: RunStore;
  sessions: SessionService;
  bus: RunEventBus;
  pricing?: RunPricing;
  /** Receives a usage record per model call and a risk event per guardrail hit. */
  usage?: UsageSink;
  guardrails?: GuardrailsFor;
  budgets?: RunBudgets;
  log?: RunLogger;
  /** A run's events from the start (the service's attach), for iterating a handle. */
  events(runId: string): Promise<AsyncIterable<RunEvent> | undefined>;
  /** Bytes of text a run may say unless its agent sets max_output_bytes; unset: no cap. */
  maxOutputBytes?: number;
  /** Multi-process mode: applies commands other processes persisted, at every checkpoint. */
  beforeCheckpoint?: (run: LiveRun) => Promise<void>;
}

/** Records the run, publishes run-start and sets the loop going; throws before that for an unknown agent (404), another principal's session (404) or a session of another agent (409). */
export async function startRun(deps: StartRunDeps, request: StartRunRequest): Promise<LiveRun> {
  const agent = deps.agents.get(request.agentName);
  const merged = request.sessionId
    ? await deps.sessions.open(request.sessionId, agent.name, sessionOwner(request), request.messages)
    : undefined;
  const offered = offerTools(deps.tools, agent, request.clientTools ?? []);
  const runId = createId('run');
  // The first model call starts while the insert commits (startRun resolves only after it, so nobody
  // outside learns of a run that is not stored). Everything written later waits for it (executeRun).
  const inserted = deps.runStore.insertRun(initialRecord(runId, agent, request));
  inserted.catch(() => undefined);

  let run: LiveRun | undefined;
  const controller = createRunControl({
    signal: request.signal,
    beforeCheckpoint: deps.beforeCheckpoint && (() => deps.beforeCheckpoint!(run!)),
  });
  // A client streaming the handle holds the run back: the upstream is read only as fast as it reads.
  const flow = createRunFlow();
  const events = createRunEventPublisher({
    runId,
    bus: deps.bus,
    isHeld: () => controller.status === 'paused',
    onError: reportOnce(deps.log, runId),
    flow,
    maxOutputBytes: agent.max_output_bytes ?? deps.maxOutputBytes,
  });
  controller.onChange((status) => status !== 'paused' && events.release());
  events.emit({
    type: 'run-start',
    agentName: agent.name,
    model: agent.model,
    source: request.source,
    sessionId: request.sessionId ?? null,
  });

  let statusWrites: Promise<void> = inserted;
  let result: Promise<RunResult> | undefined;
  const conversation = merged?.conversation ?? request.messages;
  const ctx = createContext(deps, request, {
    runId,
    agent,
    offered,
    controller,
    emit: events.emit,
    conversation,
    inserted,
  });
  ctx.flow = flow;
  run = {
    runId,
    controller,
    writeStatus(status) {
      statusWrites = statusWrites.catch(() => undefined).then(() => deps.runStore.setActiveStatus(runId, status));
      return statusWrites;
    },
    handle: {
      runId,
      agentName: agent.name,
      control: controller,
      timing: ctx.timing,
      get result() {
        return result!;
      },
      [Symbol.asyncIterator]: () => flow.hold(replayFromStart(deps, runId))[Symbol.asyncIterator](),
    },
  };
  const session =
    request.sessionId && merged
      ? { id: request.sessionId, pending: merged.pending, service: deps.sessions }
      : undefined;
  const budgets = deps.budgets;
  const admit =
    budgets &&
    ((messages: ChatMessage[]) =>
      budgets.admit({
        runId,
        agent,
        messages,
        maxTokens: ctx.maxTokens,
        tokenId: request.tokenId,
        tokenMaxCostUsd: request.tokenMaxCostUsd,
      }));
  result = executeRun({
    runId,
    ctx,
    conversation,
    controller,
    store: deps.runStore,
    bus: deps.bus,
    events,
    session,
    admit,
    log: deps.log,
    inserted,
  });
  try {
    await inserted;
  } catch (error) {
    controller.cancel(new AppError({ code: 'internal_error', message: 'The run could not be recorded' }));
    await result;
    throw error;
  }
  return run;
}

/** Every authenticated route passes its principal; only callers without one (tests mounting routes bare) share `anonymous`. */
function sessionOwner(request: StartRunRequest): string {
  return request.owner ?? 'anonymous';
}

interface RunParts {
  runId: string;
  agent: RegisteredAgent;
  offered: ReturnType<typeof offerTools>;
  controller: RunContext['control'];
  emit: RunContext['emit'];
  conversation: ChatMessage[];
  inserted: Promise<void>;
}

function createContext(deps: StartRunDeps, request: StartRunRequest, parts: RunParts): RunContext {
  const { runId, agent, emit } = parts;
  const run = {
    run_id: runId,
    agent_name: agent.name,
    session_id: request.sessionId ?? null,
    source: request.source,
    provider: agent.provider,
    model: agent.model,
  };
  // The client's own tool results and context are sources an answer may rightly draw on.
  const clientSources = parts.conversation.flatMap((message) => (message.role === 'tool' ? [message.content] : []));
  return {
    agent,
    models: deps.models,
    tools: deps.tools,
    ...parts.offered,
    temperature: request.temperature ?? agent.temperature,
    maxTokens: request.maxTokens ?? agent.max_tokens,
    control: parts.controller,
    recorder: createRunRecorder({
      runId,
      model: agent.model,
      store: deps.runStore,
      pricing: deps.pricing,
      inserted: parts.inserted,
    }),
    reporter: createRunReporter({ sink: deps.usage, emit, run, log: deps.log }),
    guardrails: deps.guardrails?.(agent),
    sources: [...(request.context ?? []), ...clientSources],
    timing: { upstreamMs: 0 },
    emit,
  };
}

async function* replayFromStart(deps: StartRunDeps, runId: string): AsyncGenerator<RunEvent> {
  const source = await deps.events(runId);
  if (source) yield* source;
}

function offerTools(registry: ToolRegistry, agent: RegisteredAgent, clientTools: ToolDefinition[]) {
  const own = agent.tools.length > 0 ? registry.forAgent(agent.tools) : [];
  const ownNames = new Set(own.map((tool) => tool.name));
  const client = clientTools.filter((tool) => !ownNames.has(tool.name));
  return { toolDefinitions: [...own, ...client], clientToolNames: new Set(client.map((tool) => tool.name)) };
}

// One line per run, not one per delta, when the bus is down.
function reportOnce(log: RunLogger | undefined, runId: string): (error: unknown) => void {
  let reported = false;
  return (error) => {
    if (reported) return;
    reported = true;
    log?.warn({ err: error, run_id: runId }, 'could not publish run events to the bus; subscribers may miss them');
  };
}

function initialRecord(runId: string, agent: RegisteredAgent, request: StartRunRequest): RunRecord {
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
    trace_id: request.traceId ?? null,
  };
}
