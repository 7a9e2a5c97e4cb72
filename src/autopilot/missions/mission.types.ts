import type { Selectable } from 'kysely';
import type { MissionExecutionsTable, MissionsTable } from '../../db/index.js';
import type { ChatMessage } from '../../llm/index.js';
import type { OverlapPolicy } from '../autopilot.types.js';

/** How a recurring mission's ticks behave (docs/autopilot.md "Schedule policies"). */
export interface SchedulePolicy {
  /** IANA zone the cron is read in; null: UTC. */
  timezone: string | null;
  /** A tick during a running execution: `skip` it (recorded), `buffer_one` (run once right after) or `allow` (run alongside). */
  overlap: OverlapPolicy;
  /** After downtime, the newest missed tick runs once if it is at most this old; null: always. */
  catchup_window_seconds: number | null;
  /** A recurring mission pauses itself after this many failed executions in a row; null: it fails at once. */
  pause_after_failures: number | null;
  /** Each tick is delayed by a stable 0..jitter seconds (per mission and tick), spreading load. */
  jitter_seconds: number;
}

export const DEFAULT_SCHEDULE_POLICY: SchedulePolicy = {
  timezone: null,
  overlap: 'skip',
  catchup_window_seconds: null,
  pause_after_failures: null,
  jitter_seconds: 0,
};

/** A mission as stored, decoded: `slots` parsed, the schedule policy columns gathered in `policy`. */
export type MissionRecord = Omit<Selectable<MissionsTable>, 'slots' | keyof SchedulePolicy | 'traceparent'> & {
  slots: Record<string, unknown>;
  policy: SchedulePolicy;
  /** W3C `traceparent` of the request that created the mission (telemetry on): its step runs link to it. */
  traceparent?: string | null;
};

/** One execution of a mission's graph ("run history" of the mission detail), as stored; its lease stays in the store. */
export type ExecutionRecord = Omit<Selectable<MissionExecutionsTable>, 'heartbeat_at'>;

export type ExecutionEnd = Pick<
  ExecutionRecord,
  'status' | 'finished_at' | 'duration_ms' | 'cost_usd' | 'error_code' | 'error_message' | 'failure_class'
>;

export interface StepTelemetry {
  cost_usd: number;
  input_tokens: number;
  output_tokens: number;
  model_used: string;
  latency_ms: number;
}

/** The step result of one node (spec "Step result"): full output, its preview, the conversation and telemetry. */
export interface StepResult {
  execution_id: string;
  step_index: number;
  node_id: string;
  /** The agent run the node ran as (source autopilot). */
  run_id: string | null;
  status: 'completed' | 'failed' | 'cancelled';
  output: string;
  messages: ChatMessage[];
  telemetry: StepTelemetry;
  error: { code: string; message: string } | null;
  started_at: string;
  finished_at: string;
}

/** The step output preview length (spec section 8). */
export const OUTPUT_PREVIEW_CHARS = 200;
