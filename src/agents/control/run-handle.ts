import type { TraceSpan } from '../../telemetry/index.js';
import type { RunEvent, RunSource } from '../../bus/index.js';
import type { ChatMessage, ModelCallOptions, ToolChoice, ToolDefinition } from '../../llm/index.js';
import type { RunTiming } from '../runtime/run-timer.js';
import type { RunController } from './run-control.js';
import type { RunResult } from '../runtime/run-result.js';
import type { RunTrigger } from '../records/run.types.js';

/** What the caller of a run asks for; what the service derives from it (the run's span, its trace id) stays inside. */
export interface StartRunRequest {
  agentName: string;
  /** The conversation as the client sent it (without the agent's system prompt). */
  messages: ChatMessage[];
  source: RunSource;
  /** Keeps the conversation server-side: stored history is merged with `messages`. */
  sessionId?: string;
  /**
   * `sessionId` was generated for this request and nobody else knows it: the session is created with the
   * run, without the upsert and read of an existing one. Never set for an id a client sent.
   */
  newSession?: boolean;
  /**
   * Whether the caller chose `sessionId` (X-Session-Id, AG-UI session_id; the default): such a session counts
   * as active from its first run. False for an id the gateway made up, or derived from one a library made up
   * (an A2A context): that session counts once the caller continues it. A new session is never named.
   */
  sessionNamed?: boolean;
  /** Who starts the run (auth ownerOf): a `sessionId` must be theirs, or is created as theirs; unset: `anonymous`. */
  owner?: string;
  /**
   * Added to the agent's system prompt for this run only (the Responses API's `instructions`): never stored in
   * its session, so a later turn does not carry it over.
   */
  instructions?: string;
  /** Overrides the agent's temperature / max_tokens for this run. */
  temperature?: number;
  maxTokens?: number;
  /**
   * The caller's sampling and output settings (top_p, stop, response_format, …), applied to every model call
   * of the run. One the agent's provider cannot honour is a 400 naming it before the run starts.
   */
  callOptions?: ModelCallOptions;
  /** The end user the caller named (Chat Completions `user`): kept on the run and its analytics records. */
  endUser?: string;
  /** The access token that started the run, if any. */
  tokenId?: string;
  /** That token's max_cost_usd (null: none); when undefined with a tokenId, the run service looks it up. */
  tokenMaxCostUsd?: number | null;
  /** Context the client supplied (AG-UI `context`): with tool results, what the answer is graded against. */
  context?: string[];
  /** Cancels the run when aborted. */
  signal?: AbortSignal;
  /**
   * Frontend tools, offered to the model with the agent's tools (an agent tool of the same name wins).
   * When the model calls one, the run emits the tool-call event and ends `completed` with finish reason
   * `tool_calls` without running it; its result arrives in a later run's messages as a tool message.
   */
  clientTools?: ToolDefinition[];
  /** The caller's `tool_choice`, for the run's first model call only (later calls choose freely, or none would end). */
  toolChoice?: ToolChoice;
  /** The caller's `parallel_tool_calls`, for every model call of the run. */
  parallelToolCalls?: boolean;
  /** The inbox item a trigger started this run for: stored with the run, shown in run detail. */
  triggeredBy?: RunTrigger;
  /** The `traceparent` of the request that stored the work this run does (a trigger's intake, a mission): the run's span links to it. */
  traceparent?: string | null;
  /** The span of the request that starts the run (its SERVER span): the run's span is its child. */
  parentSpan?: TraceSpan;
  /** A mission step's run: its usage records and risk events are counted under this instead of `agentName`. */
  mission?: RunMission;
}

/**
 * The mission step a run serves. Its agent is transient (one per step), so analytics count its model calls and
 * guardrail hits under `agentName`, a stable name, with the mission and step as dimensions of their own.
 */
export interface RunMission {
  agentName: string;
  missionId: string;
  step: string;
}

/** A live run: its events (past ones replayed, then live), its control and its final result. */
export interface RunHandle extends AsyncIterable<RunEvent> {
  readonly runId: string;
  readonly agentName: string;
  readonly control: RunController;
  /**
   * Resolves once the run ended and its record, usage records and risk events were committed; never
   * rejects. Answer the client after this, so a received answer implies its records exist.
   */
  readonly result: Promise<RunResult>;
  /** Live figures of where the run's time went (for the gateway-overhead header). */
  readonly timing: Readonly<RunTiming>;
}

/** A run this process executes, as the run service keeps it. */
export interface LiveRun {
  readonly runId: string;
  readonly handle: RunHandle;
  readonly controller: RunController;
  /** Stores running/paused, one write after the other (a pause and a quick resume must land in that order). */
  writeStatus(status: 'running' | 'paused'): Promise<void>;
  /**
   * The process is leaving: the run stops here without an end (no terminal event, no end record, its budget
   * hold kept) and `handle.result` resolves `cancelled` with `run_handed_over`; another process (or this one's
   * next start) takes it over from its last stored step. Ignored once the run ended.
   */
  handOver(): void;
}
