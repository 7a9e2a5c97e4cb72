import type { Selectable } from 'kysely';
import type { RunStepsTable, RunsTable } from '../../db/index.js';
import type {
  ChatMessage,
  FinishReason,
  ModelCallOptions,
  ToolCall,
  ToolChoice,
  ToolDefinition,
} from '../../llm/index.js';

export type RunStatus = RunsTable['status'];

/** Statuses of a run that has not ended: it can still be paused, resumed or cancelled. */
export const ACTIVE_RUN_STATUSES: readonly RunStatus[] = ['running', 'paused'];

export function isActiveRunStatus(status: RunStatus): boolean {
  return ACTIVE_RUN_STATUSES.includes(status);
}

/** A run as stored; the admin API and analytics read these (the coordination columns stay inside the stores). */
export type RunRecord = Omit<
  Selectable<RunsTable>,
  'control_request' | 'heartbeat_at' | 'resume_input' | 'attempts' | 'trace_id' | 'triggered_by' | 'end_user'
> & {
  attempts: number;
  /** The OpenTelemetry trace of the run; null (or absent) when telemetry is off. */
  trace_id?: string | null;
  /** The inbox item that started the run; null (or absent) unless a trigger did. */
  triggered_by?: RunTrigger | null;
  /** The end user the caller named (Chat Completions `user`); null (or absent) when it named none. */
  end_user?: string | null;
};

/** What a trigger (webhook, poller, listener) hands the run it starts: the inbox item, its source and event. */
export interface RunTrigger {
  item_id: string;
  /** `<kind>:<name>`, e.g. `webhook:stripe`. */
  source: string;
  event: string;
}

/** A run as first inserted: one attempt, never resumed. */
export type NewRunRecord = Omit<RunRecord, 'attempts' | 'resumed_from_step'>;

/** What a takeover needs besides the stored steps (`runs.resume_input`, JSON); written with the run's insert. */
export interface ResumeInput {
  /**
   * The conversation after the input guardrails, without the system prompt; without the session's first
   * `session_history` stored messages, which it starts with (a takeover reads them back).
   */
  messages: ChatMessage[];
  /** How many of the session's stored messages start the conversation; absent for none (or an older row). */
  session_history?: number;
  temperature: number;
  max_tokens: number | null;
  /** The caller's sampling and output settings (absent in runs stored before they existed). */
  call_options?: ModelCallOptions;
  client_tools: ToolDefinition[];
  /** The caller's tool_choice and parallel_tool_calls (absent in runs stored before they were kept). */
  tool_choice?: ToolChoice | null;
  parallel_tool_calls?: boolean | null;
  /** Client context the answer is graded against (tool results in `messages` are added again). */
  context: string[];
  /** The session's new turns (redacted), stored with the answer once the run completes. */
  session_pending: ChatMessage[] | null;
  /** The request's instructions, added to the agent's system prompt (Responses API); absent when none. */
  instructions?: string;
}

/** A run left unfinished by a dead process, claimed by this one to be continued. */
export interface ClaimedRun {
  run: RunRecord;
  input: ResumeInput;
  /** The run was paused when its process died: it resumes paused. */
  paused: boolean;
}

/** The fields written when a run ends. */
export type RunEnd = Pick<
  RunRecord,
  | 'status'
  | 'finished_at'
  | 'total_tokens'
  | 'input_tokens'
  | 'output_tokens'
  | 'cost_usd'
  | 'steps'
  | 'output'
  | 'error_code'
  | 'error_message'
>;

/** What a model step sent and received, kept so an operator can replay the exchange. */
export interface ModelPromptLog {
  messages: ChatMessage[];
  tools: string[];
  temperature: number;
  max_tokens: number | null;
  /** The caller's sampling and output settings, when it set any. */
  call_options?: ModelCallOptions;
  response: string;
  tool_calls: ToolCall[];
  /** Ids of those tool calls the client answers (tools it sent): handed over, not run here. Absent when none. */
  client_tool_calls?: string[];
  /** The caller's tool_choice, on the call it applied to. */
  tool_choice?: ToolChoice;
  finish_reason: FinishReason | null;
  input_tokens: number;
  output_tokens: number;
  /** True when the provider reported no usage and tokens were counted locally. */
  usage_estimated: boolean;
  ttft_ms: number | null;
  error?: { code: string; message: string };
  /**
   * Each attempt at a target, in order, when there was more than the one that answered (retries, fallbacks):
   * which target, how it ended, how long it took and what the call did next.
   */
  attempts?: PromptLogAttempt[];
}

export interface PromptLogAttempt {
  model: string;
  status: 'ok' | 'failed';
  latency_ms: number;
  reason?: string;
  upstream_status?: number;
  next?: 'retry' | 'fallback' | 'none';
}

export interface ToolPromptLog {
  tool_call_id: string;
  arguments: string;
  result?: string;
  error?: { code: string; message: string };
}

export type PromptLog = ModelPromptLog | ToolPromptLog;

/** A step as stored, its prompt log decoded. */
export type StepRecord = Omit<Selectable<RunStepsTable>, 'prompt_log'> & { prompt_log: PromptLog };

/** How many runs an agent has had, and how many of them have not ended. */
export interface AgentRunCounts {
  total: number;
  active: number;
}

export interface ListRunsFilter {
  agentName?: string;
  status?: RunStatus;
  source?: RunsTable['source'];
  /** Only runs whose caller named this end user. */
  endUser?: string;
  /** Started at or after (canonical ISO). */
  since?: string;
  /** Started before (canonical ISO). */
  until?: string;
  limit: number;
  offset: number;
}

/** What the runs change feed reads each tick: runs still active, started since `since`, or among `runIds`. */
export interface ChangedRunsFilter {
  since: string;
  runIds: string[];
  limit: number;
}
