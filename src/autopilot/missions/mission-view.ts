import type { HealingRecommendation } from '../healing/healing.js';
import { OUTPUT_PREVIEW_CHARS, type ExecutionRecord, type MissionRecord, type StepResult } from './mission.types.js';

/** A mission in a listing (spec "Mission" plus a few fields for people). */
export function mapMissionSummary(mission: MissionRecord) {
  return {
    mission_id: mission.mission_id,
    blueprint_id: mission.blueprint_id,
    status: mission.status,
    project_id: mission.project_id,
    created_at: mission.created_at,
    updated_at: mission.updated_at,
    title: mission.title,
    schedule: mission.schedule,
    next_run_at: mission.next_run_at,
  };
}

export function mapExecution(execution: ExecutionRecord) {
  return {
    execution_id: execution.execution_id,
    attempt: execution.attempt,
    trigger: execution.trigger,
    status: execution.status,
    scheduled_for: execution.scheduled_for,
    started_at: execution.started_at,
    finished_at: execution.finished_at,
    duration_ms: execution.duration_ms,
    cost_usd: execution.cost_usd,
    error: execution.error_code
      ? { code: execution.error_code, message: execution.error_message ?? '', class: execution.failure_class }
      : null,
  };
}

export function mapStep(step: StepResult) {
  return {
    step_index: step.step_index,
    node_id: step.node_id,
    run_id: step.run_id,
    status: step.status,
    output: step.output,
    output_preview: step.output.slice(0, OUTPUT_PREVIEW_CHARS),
    messages: step.messages.map((message) => ({ role: message.role, content: message.content })),
    telemetry: step.telemetry,
    error: step.error,
    started_at: step.started_at,
    finished_at: step.finished_at,
  };
}

export interface MissionDetailParts {
  mission: MissionRecord;
  preview: string;
  missingSlots: string[];
  /** Blueprint fields neither vocabulary knows (kept, shown) and what normalisation changed. */
  unknownFields: string[];
  notes: string[];
  executions: ExecutionRecord[];
  steps: StepResult[];
  healing: HealingRecommendation[];
}

/** GET /missions/{id}: the mission with slots, preview, schedule, run history, latest steps and healing. */
export function mapMissionDetail(parts: MissionDetailParts) {
  const { mission } = parts;
  return {
    ...mapMissionSummary(mission),
    goal: mission.goal,
    slots: mission.slots,
    missing_slots: parts.missingSlots,
    preview: parts.preview,
    budget_usd: mission.budget_usd,
    approved_at: mission.approved_at,
    schedule_policy: mission.policy,
    consecutive_failures: mission.consecutive_failures,
    blueprint: JSON.parse(mission.blueprint_json) as Record<string, unknown>,
    blueprint_unknown_fields: parts.unknownFields,
    blueprint_notes: parts.notes,
    runs: parts.executions.map(mapExecution),
    steps: parts.steps.map(mapStep),
    healing: parts.healing,
  };
}

export type MissionSummary = ReturnType<typeof mapMissionSummary>;
export type MissionDetail = ReturnType<typeof mapMissionDetail>;
