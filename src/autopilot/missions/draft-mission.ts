import { ValidationError } from '../../errors.js';
import type { Blueprint } from '../blueprints/blueprint.schema.js';
import { DEFAULT_SCHEDULE_POLICY, type MissionRecord, type SchedulePolicy } from './mission.types.js';
import type { ResolvedSlots } from '../routing/resolve-slots.js';

export interface DraftInput {
  blueprint: Blueprint;
  /** The blueprint as received, kept verbatim (as JSON text) with the mission. */
  blueprintJson: string;
  slots: ResolvedSlots;
  goal: string | null;
  /** Schedule policy of a recurring mission; unset: the defaults. */
  policy?: SchedulePolicy;
}

/**
 * A new mission in state draft. Invalid slot values are a 400 naming each slot; missing required ones
 * are allowed in a draft (approval refuses them). The first cron slot is the schedule; `budget_usd`
 * comes from the slots, else the blueprint.
 */
export function buildDraftMission(projectId: string, input: DraftInput, missionId: string, at: string): MissionRecord {
  if (input.slots.errors.length > 0) {
    const message = input.slots.errors.map((error) => `${error.field}: ${error.message}`).join('; ');
    throw new ValidationError(`invalid slots: ${message}`, 'invalid_slot', {
      param: input.slots.errors[0].field,
      errors: input.slots.errors,
    });
  }
  const values = input.slots.values;
  const cronSlot = input.blueprint.slots.find((slot) => slot.type === 'cron' && typeof values[slot.name] === 'string');
  return {
    mission_id: missionId,
    project_id: projectId,
    blueprint_id: input.blueprint.id,
    blueprint_json: input.blueprintJson,
    slots: values,
    goal: input.goal,
    title: input.blueprint.title,
    status: 'draft',
    schedule: cronSlot ? (values[cronSlot.name] as string) : null,
    next_run_at: null,
    budget_usd: typeof values.budget_usd === 'number' ? values.budget_usd : (input.blueprint.budget_usd ?? null),
    created_at: at,
    updated_at: at,
    approved_at: null,
    policy: input.policy ?? DEFAULT_SCHEDULE_POLICY,
    consecutive_failures: 0,
  };
}
