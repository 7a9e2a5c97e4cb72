import { spanTraceparent, type TraceSpan } from '../../telemetry/index.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import { createId } from '../../ids.js';
import type { Clock } from '../autopilot.types.js';
import type { Blueprint } from '../blueprints/blueprint.schema.js';
import { buildDraftMission, type DraftInput } from './draft-mission.js';
import type { ExecutionStore } from '../execution/execution.store.js';
import { recommendHealing, type HealingRecommendation } from '../healing/healing.js';
import type { MissionRunner } from '../execution/mission-runner.js';
import type { MissionScheduler } from './mission-scheduler.js';
import {
  approveMission,
  cancelMission,
  pauseMission,
  resumeMission,
  runMissionNow,
  type TransitionDeps,
} from './mission-transitions.js';
import { nextTick } from './next-run.js';
import { mapMissionDetail, type MissionDetail } from './mission-view.js';
import type { MissionStore } from './mission.store.js';
import type { MissionRecord, SchedulePolicy } from './mission.types.js';
import { renderPreview } from './render-preview.js';
import { resolveSlots } from '../routing/resolve-slots.js';

export interface MissionServiceOptions {
  missions: MissionStore;
  executions: ExecutionStore;
  runner: MissionRunner;
  scheduler: MissionScheduler;
  clock: Clock;
  /** Validates a stored blueprint against today's tools and models. */
  loadBlueprint(mission: MissionRecord): Blueprint;
}

/** Missions of a project: drafts, approval, cancellation, manual runs and the detail view. */
export interface MissionService {
  /** `trace`: the creating request's span; the mission keeps its traceparent, its step runs link to it. */
  createDraft(projectId: string, input: DraftInput, trace?: TraceSpan): Promise<MissionRecord>;
  list(projectId: string): Promise<MissionRecord[]>;
  get(projectId: string, missionId: string): Promise<MissionRecord>;
  detail(projectId: string, missionId: string): Promise<MissionDetail>;
  /** The detail view of a mission record as given (e.g. as an approval left it). */
  view(mission: MissionRecord): Promise<MissionDetail>;
  healing(projectId: string, missionId: string): Promise<HealingRecommendation[]>;
  approve(projectId: string, missionId: string): Promise<MissionRecord>;
  cancel(
    projectId: string,
    missionId: string,
  ): Promise<{ cancelled: boolean; mission_id: string; status: MissionRecord['status'] }>;
  runNow(projectId: string, missionId: string): Promise<MissionRecord>;
  /** Edits a draft's slots (null removes a value): re-validated, schedule, budget and preview follow; 409 once approved. */
  updateSlots(projectId: string, missionId: string, slots: Record<string, unknown>): Promise<MissionRecord>;
  /** Changes the schedule policy of a draft, scheduled or paused mission; a scheduled one's next run follows. */
  updatePolicy(projectId: string, missionId: string, changes: Partial<SchedulePolicy>): Promise<MissionRecord>;
  pause(projectId: string, missionId: string): Promise<MissionRecord>;
  resume(projectId: string, missionId: string): Promise<MissionRecord>;
  /** The preview text and still-missing required slots of a mission. */
  describe(mission: MissionRecord): {
    preview: string;
    missingSlots: string[];
    unknownFields: string[];
    notes: string[];
  };
}

const HISTORY_LIMIT = 20;

export function createMissionService(options: MissionServiceOptions): MissionService {
  async function get(projectId: string, missionId: string): Promise<MissionRecord> {
    const mission = await options.missions.get(projectId, missionId);
    if (!mission) throw new NotFoundError(`No mission "${missionId}" in project "${projectId}"`, 'mission_not_found');
    return mission;
  }

  function describe(mission: MissionRecord) {
    const blueprint = safeBlueprint(mission);
    if (!blueprint)
      return {
        preview: `Title: ${mission.title}\n(the blueprint no longer validates)`,
        missingSlots: [],
        unknownFields: [],
        notes: [],
      };
    const missingSlots = blueprint.slots
      .filter((slot) => slot.required && !(slot.name in mission.slots))
      .map((slot) => slot.name);
    return {
      preview: renderPreview(blueprint, mission.slots, missingSlots),
      missingSlots,
      unknownFields: blueprint.unknown_fields,
      notes: blueprint.notes,
    };
  }

  function safeBlueprint(mission: MissionRecord): Blueprint | undefined {
    try {
      return options.loadBlueprint(mission);
    } catch {
      return undefined;
    }
  }

  async function view(mission: MissionRecord): Promise<MissionDetail> {
    const executions = await options.executions.listForMission(mission.mission_id, HISTORY_LIMIT);
    // Steps of the latest execution that ran (a skipped tick has none).
    const latest = executions.find((execution) => execution.status !== 'skipped');
    const steps = latest ? await options.executions.listSteps(latest.execution_id) : [];
    return mapMissionDetail({ mission, ...describe(mission), executions, steps, healing: await healing(mission) });
  }

  async function healing(mission: MissionRecord): Promise<HealingRecommendation[]> {
    const [all, blueprintHistory] = await Promise.all([
      options.executions.listForMission(mission.mission_id, HISTORY_LIMIT),
      options.executions.listForBlueprint(mission.project_id, mission.blueprint_id, HISTORY_LIMIT),
    ]);
    // A skipped tick ran nothing: it says nothing about how the mission runs.
    const executions = all.filter((execution) => execution.status !== 'skipped');
    const blueprint = safeBlueprint(mission);
    const failed =
      executions[0]?.status === 'failed'
        ? (await options.executions.listSteps(executions[0].execution_id)).find((step) => step.status === 'failed')
        : undefined;
    const node = failed && blueprint?.agent_graph.nodes.find((candidate) => candidate.id === failed.node_id);
    const failedStep = failed ? { node_id: failed.node_id, tools: node?.tools ?? [] } : undefined;
    return recommendHealing({
      executions,
      blueprintHistory,
      estimatedCostUsd: blueprint?.estimated_cost_usd,
      estimatedDurationSeconds: blueprint?.estimated_duration_seconds,
      failedStep,
      budgetUsd: mission.budget_usd,
    });
  }

  const transitions: TransitionDeps = { ...options, reload: (mission) => get(mission.project_id, mission.mission_id) };

  return {
    async createDraft(projectId, input, trace) {
      const mission = {
        ...buildDraftMission(projectId, input, createId('mis'), options.clock().toISOString()),
        traceparent: spanTraceparent(trace),
      };
      await options.missions.insert(mission);
      return mission;
    },
    list: (projectId) => options.missions.list(projectId),
    get,
    describe,
    detail: async (projectId, missionId) => view(await get(projectId, missionId)),
    view,
    healing: async (projectId, missionId) => healing(await get(projectId, missionId)),
    async approve(projectId, missionId) {
      const mission = await get(projectId, missionId);
      return approveMission(transitions, mission, describe(mission).missingSlots);
    },
    cancel: async (projectId, missionId) => cancelMission(transitions, await get(projectId, missionId)),
    runNow: async (projectId, missionId) => runMissionNow(transitions, await get(projectId, missionId)),
    pause: async (projectId, missionId) => pauseMission(transitions, await get(projectId, missionId)),
    resume: async (projectId, missionId) => resumeMission(transitions, await get(projectId, missionId)),
    async updatePolicy(projectId, missionId, changes) {
      const mission = await get(projectId, missionId);
      const policy = { ...mission.policy, ...changes };
      const at = options.clock();
      const next =
        mission.status === 'scheduled' && mission.schedule
          ? nextTick(mission.schedule, at, policy, missionId)
          : undefined;
      if (
        !(await options.missions.updatePolicy(
          missionId,
          ['draft', 'scheduled', 'paused'],
          policy,
          at.toISOString(),
          next,
        ))
      ) {
        throw new ConflictError(
          `Cannot change the schedule policy of mission ${missionId} in state ${(await get(projectId, missionId)).status}`,
          'invalid_mission_state',
        );
      }
      return get(projectId, missionId);
    },
    async updateSlots(projectId, missionId, patch) {
      const mission = await get(projectId, missionId);
      if (mission.status !== 'draft')
        throw new ConflictError(
          `Cannot edit the slots of mission ${missionId} in state ${mission.status}: only a draft's slots can change`,
          'invalid_mission_state',
          { status: mission.status },
        );
      const blueprint = options.loadBlueprint(mission);
      const merged = Object.fromEntries(
        Object.entries({ ...mission.slots, ...patch }).filter(([, value]) => value !== null && value !== undefined),
      );
      const draft = buildDraftMission(
        projectId,
        {
          blueprint,
          blueprintJson: mission.blueprint_json,
          slots: resolveSlots(blueprint.slots, { explicit: merged }),
          goal: mission.goal,
        },
        missionId,
        mission.created_at,
      );
      const changes = {
        slots: draft.slots,
        schedule: draft.schedule,
        budget_usd: draft.budget_usd,
        updated_at: options.clock().toISOString(),
      };
      if (!(await options.missions.updateDraft(missionId, changes)))
        return this.updateSlots(projectId, missionId, patch);
      return get(projectId, missionId);
    },
  };
}
