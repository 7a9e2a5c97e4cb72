import type { RunEvent, RunSource } from '../bus/index.js';
import { createId, isoNow } from '../ids.js';
import type { ChatMessage, ModelClient } from '../llm/index.js';
import type { ToolRegistry } from '../tools/index.js';
import type { AgentRegistry, RegisteredAgent } from './agent-registry.js';
import { createRunControl, cancelledError, type RunController } from './run-control.js';
import { createRunEventLog, type RunEventListener } from './run-event-log.js';
import { executeRun, type RunLogger } from './run-execution.js';
import { createRunRecorder, type PricingFunction } from './run-recorder.js';
import type { RunResult } from './run-result.js';
import type { RunStore } from './run.store.js';
import type { RunRecord, StepRecord } from './run.types.js';
import type { SessionService } from './session.service.js';

export interface StartRunRequest {
  agentName: string;
  /** The conversation as the client sent it (without the agent's system prompt). */
  messages: ChatMessage[];
  source: RunSource;
  /** Keeps the conversation server-side: stored history is merged with `messages`. */
  sessionId?: string;
  /** Overrides the agent's temperature / max_tokens for this run. */
  temperature?: number;
  maxTokens?: number;
  /** The access token that started the run, if any. */
  tokenId?: string;
  /** Cancels the run when aborted. */
  signal?: AbortSignal;
}

/** A live run: its events (past ones replayed, then live), its control and its final result. */
export interface RunHandle extends AsyncIterable<RunEvent> {
  readonly runId: string;
  readonly agentName: string;
  readonly control: RunController;
  subscribe(listener: RunEventListener): () => void;
  /** Resolves once the run ended and its record was written; never rejects. */
  readonly result: Promise<RunResult>;
}

export interface RunService {
  /** Starts a run; throws before starting for an unknown agent (404) or a session of another agent (409). */
  start(request: StartRunRequest): Promise<RunHandle>;
  /** A run still running in this process. */
  live(runId: string): RunHandle | undefined;
  active(): RunHandle[];
  /** A stored run with its steps and prompt logs. */
  find(runId: string): Promise<{ run: RunRecord; steps: StepRecord[] } | undefined>;
  /** Waits for running runs to end; cancels those still running after `timeoutMs`. */
  drain(timeoutMs: number): Promise<void>;
}

export interface RunServiceOptions {
  agents: AgentRegistry;
  models: ModelClient;
  tools: ToolRegistry;
  runStore: RunStore;
  sessions: SessionService;
  pricing?: PricingFunction;
  /** Receives every event of every run (the run-event bus plugs in here). */
  publish?: (event: RunEvent) => void;
  log?: RunLogger;
}

export function createRunService(options: RunServiceOptions): RunService {
  const live = new Map<string, RunHandle>();

  async function start(request: StartRunRequest): Promise<RunHandle> {
    const agent = options.agents.get(request.agentName);
    const merged = request.sessionId ? await options.sessions.open(request.sessionId, agent.name, request.messages) : undefined;
    const toolDefinitions = agent.tools.length > 0 ? options.tools.forAgent(agent.tools) : [];
    const runId = createId('run');
    await options.runStore.insertRun(initialRecord(runId, agent, request));
    const controller = createRunControl({ signal: request.signal });
    const events = createRunEventLog(runId);
    if (options.publish) events.subscribe(options.publish);
    const emit = events.emit;
    emit({ type: 'run-start', agentName: agent.name, model: agent.model, source: request.source, sessionId: request.sessionId ?? null });
    const ctx = {
      agent,
      models: options.models,
      tools: options.tools,
      toolDefinitions,
      temperature: request.temperature ?? agent.temperature,
      maxTokens: request.maxTokens ?? agent.max_tokens,
      control: controller,
      recorder: createRunRecorder({ runId, model: agent.model, store: options.runStore, pricing: options.pricing }),
      emit,
    };
    const session = request.sessionId && merged ? { id: request.sessionId, pending: merged.pending, service: options.sessions } : undefined;
    const result = executeRun({ runId, ctx, conversation: merged?.conversation ?? request.messages, controller, store: options.runStore, events, session, log: options.log });
    const handle: RunHandle = {
      runId,
      agentName: agent.name,
      control: controller,
      subscribe: events.subscribe,
      result,
      [Symbol.asyncIterator]: () => events[Symbol.asyncIterator](),
    };
    live.set(runId, handle);
    void result.finally(() => live.delete(runId));
    return handle;
  }

  return {
    start,
    live: (runId) => live.get(runId),
    active: () => [...live.values()],
    async find(runId) {
      const run = await options.runStore.getRun(runId);
      return run && { run, steps: await options.runStore.listSteps(runId) };
    },
    async drain(timeoutMs) {
      const running = [...live.values()];
      if (running.length === 0) return;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
      await Promise.race([Promise.all(running.map((run) => run.result)), timeout]);
      clearTimeout(timer);
      for (const run of running.filter((candidate) => live.has(candidate.runId))) run.control.cancel(cancelledError('The server shut down before the run finished', 'shutdown'));
      await Promise.all(running.map((run) => run.result));
    },
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
  };
}
