import type { TraceSpan } from '../../telemetry/index.js';
import type { AutopilotInstanceStore } from '../autopilot-instance.store.js';
import type { Blueprint } from '../blueprints/blueprint.schema.js';
import { assertEnabled } from '../routing/goal-router.js';
import type { MissionService } from './mission.service.js';
import { DEFAULT_SCHEDULE_POLICY, type MissionRecord, type SchedulePolicy } from './mission.types.js';
import type { SlotExtractor } from '../routing/model-slot-extractor.js';
import { resolveGoalSlots } from '../routing/resolve-goal-slots.js';

export interface CreateMissionInput {
  blueprint_json: string | Record<string, unknown>;
  slots?: Record<string, unknown>;
  goal?: string;
  schedule_policy?: Partial<SchedulePolicy>;
}

/** POST /missions: a draft from a picker choice or the user's own blueprint. */
export type MissionCreator = (
  projectId: string,
  input: CreateMissionInput,
  trace?: TraceSpan,
) => Promise<MissionRecord>;

export function createMissionCreator(options: {
  instances: AutopilotInstanceStore;
  missions: MissionService;
  parseBlueprint(text: string): Blueprint;
  slotExtractor?: SlotExtractor;
}): MissionCreator {
  return async (projectId, input, trace) => {
    await assertEnabled(options.instances);
    const json = typeof input.blueprint_json === 'string' ? input.blueprint_json : JSON.stringify(input.blueprint_json);
    const blueprint = options.parseBlueprint(json);
    const goal = input.goal ?? '';
    const slots = await resolveGoalSlots(blueprint, goal, goal ? options.slotExtractor : undefined, input.slots);
    const policy = { ...DEFAULT_SCHEDULE_POLICY, ...stripUndefined(input.schedule_policy ?? {}) };
    return options.missions.createDraft(
      projectId,
      {
        blueprint,
        blueprintJson: json,
        slots,
        goal: input.goal ?? null,
        policy,
      },
      trace,
    );
  };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}
