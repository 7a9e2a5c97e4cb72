import { traceLogFields, type TraceSpan } from '../../telemetry/index.js';
import type { RunEvent, RunEventBody, RunEventBus, RunSource } from '../../bus/index.js';
import type { ModelClient, ToolDefinition } from '../../llm/index.js';
import type { ToolRegistry } from '../../tools/index.js';
import type { RunBudgets } from '../budgets/run-budget.js';
import { createRunControl, type RunController } from '../control/run-control.js';
import type { LiveRun } from '../control/run-handle.js';
import type { GuardrailsFor } from '../registry/agent-guardrails.js';
import type { AgentRegistry, RegisteredAgent } from '../registry/agent-registry.js';
import { withBindingsOnUse, type Logger } from '../../logger.js';
import { createRunRecorder, type RunPricing } from '../records/run-recorder.js';
import { createRunReporter } from '../records/run-reporter.js';
import type { RunWrites } from '../records/run-writes.js';
import type { RunStore } from '../records/run.store.js';
import type { StepRecord } from '../records/run.types.js';
import type { SessionService } from '../sessions/session.service.js';
import type { UsageSink } from '../records/usage-sink.js';
import type { RunSetup } from './run-context.js';
import { createRunEventPublisher, type RunEventPublisher } from './run-event-publisher.js';
import type { RunResult } from './run-result.js';
import { createRunFlow } from './run-flow.js';
import { createRunTimer } from './run-timer.js';

export interface RuntimeDeps {
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
  log?: Logger;
  /** runs.resume: steps are stored before the next call starts, so a takeover can continue after them. */
  durable?: boolean;
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
  /** Frontend tools the client offered (an agent tool of the same name wins). */
  clientTools: ToolDefinition[];
  /** Context the client supplied (AG-UI `context`). */
  context: string[];
  /** What the answer is graded against besides the run's own tool results: the context and the client's tool results. */
  sources: string[];
}

export interface OpenRunOptions {
  runId: string;
  agent: RegisteredAgent;
  settings: RunSettings;
  writes: RunWrites;
  signal?: AbortSignal;
  /**
   * A run taken over: the steps and text of its earlier attempts, and their events when the bus still has
   * them whole (else the seq the new attempt's numbering starts after).
   */
  resumed?: { steps: readonly StepRecord[]; output: string; earlier?: readonly RunEvent[]; afterSeq?: number };
  /** The run's `invoke_agent` span: its trace and span ids are bound on the run's logger. */
  trace?: TraceSpan;
}

/** A run's parts before it starts: its control, its event publisher and everything the loop needs. */
export interface OpenRun {
  readonly controller: RunController;
  readonly events: RunEventPublisher;
  readonly setup: RunSetup;
  /** The run's logger (with its trace ids when traced). */
  readonly log?: Logger;
  /** The LiveRun the service keeps, once the run's result is under way. */
  toLive(result: Promise<RunResult>): LiveRun;
}

export function openRun(deps: RuntimeDeps, options: OpenRunOptions): OpenRun {
  const { runId, agent, settings, writes } = options;
  const { beforeCheckpoint } = deps;
  const traceFields = traceLogFields(options.trace);
  const log = traceFields.trace_id && deps.log ? withBindingsOnUse(deps.log, traceFields) : deps.log;
  const controller = createRunControl({
    signal: options.signal,
    beforeCheckpoint: beforeCheckpoint && (() => beforeCheckpoint(runId)),
  });
  // A client streaming the handle holds the run back: the upstream is read only as fast as it reads.
  const flow = createRunFlow();
  const events = createRunEventPublisher({
    runId,
    bus: deps.bus,
    isHeld: () => controller.status === 'paused',
    onError: reportOnce(log, runId),
    flow,
    maxOutputBytes: agent.max_output_bytes ?? deps.maxOutputBytes,
    output: options.resumed?.output,
    earlier: options.resumed?.earlier,
    afterSeq: options.resumed?.afterSeq,
    logLimit: deps.bus.logLimit,
  });
  controller.onChange((status) => status !== 'paused' && events.release());
  const emit = (body: RunEventBody) => events.emit(body);
  const record = {
    run_id: runId,
    agent_name: agent.name,
    session_id: settings.sessionId,
    source: settings.source,
    provider: agent.provider,
    model: agent.model,
  };
  const offered = offerTools(deps.tools, agent, settings.clientTools);
  const timer = createRunTimer();
  const setup: RunSetup = {
    runId,
    agent,
    models: deps.models,
    tools: deps.tools,
    ...offered,
    temperature: settings.temperature,
    maxTokens: settings.maxTokens,
    control: controller,
    recorder: createRunRecorder({
      runId,
      model: agent.model,
      insertStep: writes.insertStep,
      pricing: deps.pricing,
      stored: options.resumed?.steps,
    }),
    reporter: createRunReporter({ sink: deps.usage, emit, run: record, log, trace: options.trace }),
    guardrails: deps.guardrails?.(agent),
    sources: [...settings.sources],
    timer,
    durable: deps.durable ?? false,
    flow,
    trace: options.trace,
    log,
    emit,
  };
  return {
    controller,
    events,
    log,
    setup,
    toLive: (result) => ({
      runId,
      controller,
      writeStatus: writes.writeStatus,
      handle: {
        runId,
        agentName: agent.name,
        control: controller,
        timing: timer,
        result,
        [Symbol.asyncIterator]: () => flow.hold(replayFromStart(deps, runId))[Symbol.asyncIterator](),
      },
    }),
  };
}

async function* replayFromStart(deps: RuntimeDeps, runId: string): AsyncGenerator<RunEvent> {
  const source = await deps.events(runId);
  if (source) yield* source;
}

function offerTools(registry: ToolRegistry, agent: RegisteredAgent, clientTools: ToolDefinition[]) {
  const own = agent.tools.length > 0 ? registry.forAgent(agent.tools) : [];
  const ownNames = new Set(own.map((tool) => tool.name));
  const client = clientTools.filter((tool) => !ownNames.has(tool.name));
  return {
    toolDefinitions: [...own, ...client],
    clientToolNames: new Set(client.map((tool) => tool.name)),
    callerToolNames: new Set(client.filter((tool) => tool.awaitsCaller).map((tool) => tool.name)),
  };
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
