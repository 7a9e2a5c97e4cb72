import type { RunEvent, RunEventBus, RunSource } from '../../bus/index.js';
import { AppError, createError, DatabaseUnavailableError, isAppError } from '../../errors.js';
import type { Guardrails } from '../../guardrails/index.js';
import { isoNow } from '../../ids.js';
import type {
  ChatMessage,
  ModelCallOptions,
  ModelClient,
  Pricing,
  ToolCall,
  ToolChoice,
  ToolDefinition,
} from '../../llm/index.js';
import { withBindingsOnUse, type Logger } from '../../logger.js';
import { traceLogFields, type TraceSpan } from '../../telemetry/index.js';
import type { ToolRegistry } from '../../tools/index.js';
import type { RunBudget, RunBudgets } from '../budgets/run-budget.js';
import { createRunControl, type RunController } from '../control/run-control.js';
import type { LiveRun, RunHandle, RunMission } from '../control/run-handle.js';
import { createRunRecorder, type RunRecorder } from '../records/run-recorder.js';
import { createRunReporter, type RunReporter } from '../records/run-reporter.js';
import type { RunWrites } from '../records/run-writes.js';
import type { SessionHistory } from '../records/prompt-log-refs.js';
import type { RunStore } from '../records/run.store.js';
import type { RunStatus, StepRecord } from '../records/run.types.js';
import type { UsageSink } from '../records/usage-sink.js';
import type { GuardrailsFor } from '../registry/agent-guardrails.js';
import type { AgentRegistry, RegisteredAgent } from '../registry/agent-registry.js';
import type { SessionService } from '../sessions/session.service.js';
import { createRunEventPublisher, type RunEventPublisher } from './run-event-publisher.js';
import { createRunFlow, type RunFlow } from './run-flow.js';
import type { RunResult } from './run-result.js';
import { createRunTimer, type RunTimer } from './run-timer.js';
import { runAgentLoop, type LoopOutcome, type LoopStart } from './runtime-loop.js';

/** What the run service hands every run it starts or takes over. */
export interface RuntimeDeps {
  agents: AgentRegistry;
  models: ModelClient;
  tools: ToolRegistry;
  runStore: RunStore;
  sessions: SessionService;
  bus: RunEventBus;
  pricing?: Pick<Pricing, 'price'>;
  /** Receives a usage record per model call and a risk event per guardrail hit. */
  usage?: UsageSink;
  guardrails?: GuardrailsFor;
  budgets?: RunBudgets;
  log?: Logger;
  /** runs.resume: steps are stored before the next call starts, so a takeover can continue after them. */
  durable: boolean;
  /** A run's events from the start (the service's attach), for iterating a handle. */
  events(runId: string): Promise<AsyncIterable<RunEvent> | undefined>;
  /** Multi-process mode: applies commands other processes persisted, at every checkpoint. */
  beforeCheckpoint?: (runId: string) => Promise<void>;
  /** Bytes of text a run may say unless its agent sets max_output_bytes; unset: no cap. */
  maxOutputBytes?: number;
}

/** What a run is asked to do besides its conversation: the fields a takeover reads back from the store. */
export interface RunSettings {
  source: RunSource;
  sessionId: string | null;
  temperature: number;
  maxTokens?: number;
  /** The caller's sampling and output settings, for every model call. */
  callOptions?: ModelCallOptions;
  /** Frontend tools the client offered (an agent tool of the same name wins). */
  clientTools: ToolDefinition[];
  /** The caller's tool_choice (the first model call only) and parallel_tool_calls (every call). */
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  /** Context the client supplied (AG-UI `context`): with tool results, what the answer is graded against. */
  context: string[];
  /** The access token that started the run, and its max_cost_usd when the caller knew it (else looked up). */
  tokenId?: string;
  tokenMaxCostUsd?: number | null;
  /** A mission step's run: what its usage records and risk events are counted under. */
  mission?: RunMission;
  /** The end user the caller named: on the run's usage records and risk events. */
  endUser?: string | null;
}

export interface RunOptions {
  id: string;
  agent: RegisteredAgent;
  settings: RunSettings;
  writes: RunWrites;
  signal?: AbortSignal;
  /** The run's `invoke_agent` span: its trace and span ids are bound on the run's logger. */
  trace?: TraceSpan;
  /**
   * A run taken over: the steps and text of its earlier attempts, and their events when the bus still has
   * them whole (else the seq the new attempt's numbering starts after).
   */
  resumed?: { steps: readonly StepRecord[]; output: string; earlier?: readonly RunEvent[]; afterSeq?: number };
  /** The session history the conversation starts with (the same objects): prompt logs refer to it. */
  history?: SessionHistory;
}

/** How a run begins: where its loop starts, or why its input was refused before any model call. */
export type RunStart =
  | { refused: unknown }
  | {
      loop: LoopStart;
      /** The conversation without the system prompt: its tool results are sources the answer is graded against. */
      conversation: ChatMessage[];
      /** Set when the run belongs to a session: the turns stored with its answer once it completes. */
      session?: { id: string; pending: ChatMessage[] };
    };

/** A new run's loop start: the agent's system prompt (with the request's instructions after it), then the conversation. */
export function conversationStart(
  agent: RegisteredAgent,
  conversation: ChatMessage[],
  instructions?: string,
): LoopStart {
  // One system message: some providers take a single system prompt.
  const system = [agent.system_prompt, instructions].filter(Boolean).join('\n\n');
  const messages: ChatMessage[] = system ? [{ role: 'system', content: system }, ...conversation] : conversation;
  return { messages, modelCalls: 0 };
}

/**
 * One run, new (start-run.ts) or taken over from its checkpoint (take-over-run.ts): it owns its control, its
 * events, its records and its budget, and `execute` takes it from its loop's start to its stored end.
 */
export class Run implements LiveRun {
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
  readonly toolChoice: ToolChoice | undefined;
  readonly parallelToolCalls: boolean | undefined;
  readonly temperature: number;
  readonly maxTokens: number | undefined;
  readonly callOptions: ModelCallOptions | undefined;
  readonly controller: RunController;
  readonly events: RunEventPublisher;
  readonly recorder: RunRecorder;
  /** Usage records and guardrail hits, committed in the background and awaited with the run's end. */
  readonly reporter: RunReporter;
  /** The agent's compiled guardrails; undefined when all are off. */
  readonly guardrails: Guardrails | undefined;
  readonly timer: RunTimer;
  /** Clients streaming the run: the model step waits on it before reading more of the upstream. */
  readonly flow: RunFlow;
  /** The run's `invoke_agent` span, parent of its model and tool calls' spans; undefined when not traced. */
  readonly trace: TraceSpan | undefined;
  /** The run's logger: its lines carry the run's trace ids when it is traced. */
  readonly log: Logger | undefined;
  readonly handle: RunHandle;
  #budget: RunBudget | undefined;
  readonly #deps: RuntimeDeps;
  readonly #options: RunOptions;
  readonly #ended: (result: RunResult) => void;

  constructor(deps: RuntimeDeps, options: RunOptions) {
    const { id, agent, settings } = options;
    this.#deps = deps;
    this.#options = options;
    this.runId = id;
    this.agent = agent;
    this.models = deps.models;
    this.tools = deps.tools;
    this.temperature = settings.temperature;
    this.maxTokens = settings.maxTokens;
    this.callOptions = settings.callOptions;
    this.toolChoice = settings.toolChoice;
    this.parallelToolCalls = settings.parallelToolCalls;
    const traceFields = traceLogFields(options.trace);
    this.trace = options.trace;
    this.log = traceFields.trace_id && deps.log ? withBindingsOnUse(deps.log, traceFields) : deps.log;
    const { beforeCheckpoint } = deps;
    this.controller = createRunControl({
      signal: options.signal,
      beforeCheckpoint: beforeCheckpoint && (() => beforeCheckpoint(id)),
    });
    // A client streaming the handle holds the run back: the upstream is read only as fast as it reads.
    this.flow = createRunFlow();
    this.events = createRunEventPublisher({
      runId: id,
      bus: deps.bus,
      control: this.controller,
      onError: reportOnce(this.log, id),
      flow: this.flow,
      maxOutputBytes: agent.max_output_bytes ?? deps.maxOutputBytes,
      output: options.resumed?.output,
      earlier: options.resumed?.earlier,
      afterSeq: options.resumed?.afterSeq,
      logLimit: deps.bus.logLimit,
    });
    this.controller.onChange((status) => status !== 'paused' && this.events.release());
    const own = agent.tools.length > 0 ? deps.tools.forAgent(agent.tools) : [];
    const ownNames = new Set(own.map((tool) => tool.name));
    const client = settings.clientTools.filter((tool) => !ownNames.has(tool.name));
    this.toolDefinitions = [...own, ...client];
    this.clientToolNames = new Set(client.map((tool) => tool.name));
    this.callerToolNames = new Set(client.filter((tool) => tool.awaitsCaller).map((tool) => tool.name));
    this.recorder = createRunRecorder({
      runId: id,
      model: agent.model,
      insertStep: options.writes.insertStep,
      pricing: deps.pricing,
      stored: options.resumed?.steps,
      durable: deps.durable,
      history: options.history,
    });
    const record = {
      run_id: id,
      agent_name: settings.mission?.agentName ?? agent.name,
      mission_id: settings.mission?.missionId ?? null,
      mission_step: settings.mission?.step ?? null,
      end_user: settings.endUser ?? null,
      session_id: settings.sessionId,
      source: settings.source,
      provider: agent.provider,
      model: agent.model,
    };
    this.reporter = createRunReporter({
      sink: deps.usage,
      emit: this.events.emit,
      run: record,
      log: this.log,
      trace: options.trace,
    });
    this.guardrails = deps.guardrails?.(agent);
    this.timer = createRunTimer();
    let ended!: (result: RunResult) => void;
    const result = new Promise<RunResult>((resolve) => (ended = resolve));
    this.#ended = ended;
    this.handle = {
      runId: id,
      agentName: agent.name,
      control: this.controller,
      timing: this.timer,
      result,
      [Symbol.asyncIterator]: () => this.flow.hold(replayFromStart(deps, id))[Symbol.asyncIterator](),
    };
  }

  /** Undefined until the run was admitted to its budgets, and when none applies. */
  get budget(): RunBudget | undefined {
    return this.#budget;
  }

  /** Stores running/paused, one write after the other (a pause and a quick resume must land in that order). */
  writeStatus(status: 'running' | 'paused'): Promise<void> {
    return this.#options.writes.writeStatus(status);
  }

  handOver(): void {
    this.controller.cancel(createError('run_handed_over'));
  }

  /** True once handOver() stopped the run: nothing more of it is recorded here. */
  get handedOver(): boolean {
    return this.controller.cancellation?.code === 'run_handed_over';
  }

  /**
   * Runs the loop to its end and grades the answer; publishes the terminal event and writes the run's final
   * record with its event log (and the session's new turns) while its usage records and risk events commit
   * alongside. Resolves `handle.result` with what it resolves to; never rejects.
   */
  async execute(start: RunStart): Promise<RunResult> {
    const result = await this.#execute(start);
    this.#ended(result);
    return result;
  }

  async #execute(start: RunStart): Promise<RunResult> {
    const { writes } = this.#options;
    const ended = await this.#loop(start);
    if (isHandedOver(ended.result)) {
      // Nothing ends here: the next owner goes on from the stored steps, on the same event stream.
      await Promise.all([
        writes.inserted.catch(() => undefined),
        this.reporter.settled(),
        this.recorder.settled().catch(() => undefined),
      ]);
      return ended.result;
    }
    const session = 'refused' in start ? undefined : start.session;
    const insertError = await writes.inserted.then(
      () => undefined,
      (error: unknown) => {
        this.log?.error({ err: error, run_id: this.runId }, 'could not record the run');
        return error;
      },
    );
    // The database stayed out of reach past the write retry: the run (it may have called the model) is still
    // recorded once it is back, failed with database_unavailable, with its usage.
    const late = insertError instanceof DatabaseUnavailableError;
    if (late) writes.insertOnceBack();
    const stored = insertError === undefined || late;
    // An answer nobody could record is not given: the client gets an error instead.
    const result: RunResult =
      insertError === undefined
        ? ended.result
        : this.#summarize({ status: 'failed', error: late ? insertError : unrecorded() });
    // A run that fails while paused (its in-flight call failed) ends at once: what it held goes out first.
    this.controller.end(result.status);
    this.events.release();
    const asked =
      result.status === 'completed'
        ? ended.loop?.clientToolCalls?.find((call) => this.callerToolNames.has(call.name))
        : undefined;
    if (result.status === 'completed') {
      this.events.emit({
        type: 'run-end',
        output: result.output,
        totalTokens: result.usage.totalTokens,
        costUsd: result.costUsd,
        ...(asked && { inputRequired: { toolCallId: asked.id, tool: asked.name, arguments: asked.arguments } }),
      });
    } else {
      this.events.emit({ type: 'run-error', code: result.error.code, message: result.error.message });
    }
    // Not after events.settled(): the log is the publisher's own, and a run's end must not wait out a bus outage
    // (ioredis holds a publish for up to ~40 s before it gives up).
    await Promise.all([
      stored && this.#storeEnd(result, ended.loop, asked, session),
      this.reporter.settled(),
      this.recorder.settled().catch((error: unknown) => {
        this.log?.error({ err: error, run_id: this.runId }, 'could not record a step of the run');
      }),
    ]);
    // After the run's cost is stored: an account loaded again from the store must see it.
    await this.#budget?.release();
    return result;
  }

  /** Admission, the loop and the grading; any failure (or cancellation) becomes the result. */
  async #loop(start: RunStart): Promise<{ result: RunResult; loop?: LoopOutcome }> {
    try {
      if ('refused' in start) throw start.refused;
      this.#budget = await this.#admit(start.loop.messages);
      const loop = await runAgentLoop(this, start.loop);
      const output = this.events.output;
      // Graded against the client's context and tool results and the run's own tool results.
      if (this.guardrails && output) {
        const clientResults = start.conversation.flatMap((message) =>
          message.role === 'tool' ? [message.content] : [],
        );
        const sources = [...this.#options.settings.context, ...clientResults, ...this.recorder.toolResults()];
        this.reporter.flag(this.guardrails.checkGrounding(output, sources));
      }
      const ending = { status: 'completed' as const, finishReason: loop.finishReason };
      const result = this.#summarize(
        loop.clientToolCalls ? { ...ending, clientToolCalls: loop.clientToolCalls } : ending,
      );
      return { result, loop };
    } catch (error) {
      const cancelled = this.controller.cancellation;
      const failure = cancelled ?? this.#toAppError(error);
      return { result: this.#summarize({ status: cancelled ? 'cancelled' : 'failed', error: failure }) };
    }
  }

  /**
   * Reserves the run's budgets for its first model call (these messages). A run taken over is admitted again
   * here: the dead owner's reservation is freed (what its finished calls were charged stays spent).
   */
  async #admit(firstCall: ChatMessage[]): Promise<RunBudget | undefined> {
    const { budgets, runStore } = this.#deps;
    if (!budgets) return undefined;
    const { settings, resumed } = this.#options;
    if (resumed) await runStore.releaseBudget(this.runId);
    return budgets.admit({
      runId: this.runId,
      agent: this.agent,
      messages: firstCall,
      tools: this.toolDefinitions,
      maxTokens: settings.maxTokens,
      tokenId: settings.tokenId,
      tokenMaxCostUsd: settings.tokenMaxCostUsd,
    });
  }

  /** The run's result: its totals and how it ended. */
  #summarize(
    ending:
      | { status: 'completed'; finishReason: LoopOutcome['finishReason']; clientToolCalls?: ToolCall[] }
      | { status: 'failed' | 'cancelled'; error: AppError },
  ): RunResult {
    const totals = this.recorder.totals();
    // The output is every text the agent said, as streamed: a failed run keeps what it said before failing.
    return {
      runId: this.runId,
      output: this.events.output,
      usage: {
        inputTokens: totals.inputTokens,
        outputTokens: totals.outputTokens,
        totalTokens: totals.inputTokens + totals.outputTokens,
      },
      costUsd: totals.costUsd,
      steps: totals.steps,
      upstreamMs: this.timer.upstreamMs,
      ...ending,
    };
  }

  #toAppError(error: unknown): AppError {
    if (isAppError(error)) return error;
    this.log?.error({ err: error, run_id: this.runId }, 'run failed unexpectedly');
    return new AppError({ code: 'internal_error', message: 'The run failed with an internal error', cause: error });
  }

  // A failed write must not turn a finished run into a hung request: it is logged and the client still gets its answer.
  async #storeEnd(
    result: RunResult,
    loop: LoopOutcome | undefined,
    asked: ToolCall | undefined,
    session: { id: string; pending: ChatMessage[] } | undefined,
  ): Promise<void> {
    const failed = result.status === 'completed' ? undefined : result.error;
    const { writes } = this.#options;
    try {
      // A completed run's turns commit with its end, in one transaction (one group commit on SQLite).
      const turns =
        session && result.status === 'completed'
          ? this.#deps.sessions.appendWrite(session.id, [...session.pending, answerOf(result.output, loop)])
          : undefined;
      // The run's part is done either way; `input_required` tells an operator it stopped to ask its caller.
      const status: RunStatus = asked ? 'input_required' : result.status;
      await writes.finish(
        {
          status,
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
        // Every event the run made, whether the bus took it or not (a takeover's earlier ones first).
        this.events.log(),
        turns,
      );
    } catch (error) {
      this.log?.error({ err: error, run_id: this.runId }, 'could not record the end of the run');
    }
  }
}

/** A run stopped by handOver(): its process left before it ended, and it goes on elsewhere. */
export function isHandedOver(result: RunResult): boolean {
  return result.status === 'cancelled' && result.error.code === 'run_handed_over';
}

function unrecorded(): AppError {
  return new AppError({ code: 'internal_error', message: 'The run could not be recorded' });
}

function answerOf(output: string, loop: LoopOutcome | undefined): ChatMessage {
  const toolCalls = loop?.clientToolCalls;
  return toolCalls
    ? { role: 'assistant', content: output, tool_calls: toolCalls }
    : { role: 'assistant', content: output };
}

async function* replayFromStart(deps: RuntimeDeps, runId: string): AsyncGenerator<RunEvent> {
  const source = await deps.events(runId);
  if (source) yield* source;
}

// One line per run, not one per delta, when the bus is down.
function reportOnce(log: Logger | undefined, runId: string): (error: unknown) => void {
  let reported = false;
  return (error) => {
    if (reported) return;
    reported = true;
    log?.warn({ err: error, run_id: runId }, 'could not publish run events to the bus; subscribers may miss them');
  };
}
