import type { TraceSpan } from '../../telemetry/index.js';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.js';
import type { GoalRouter } from './goal-router.js';
import type { MissionCreator } from '../missions/mission-creator.js';
import type { MissionRecord } from '../missions/mission.types.js';
import type { PickerStore } from './picker.store.js';

/** Creates a draft from the n-th candidate (1-based) of the project's last picker, or of a fresh picker for `goal`. */
export type MissionPicker = (projectId: string, n: number, goal?: string, trace?: TraceSpan) => Promise<MissionRecord>;

export function createMissionPicker(options: {
  pickers: PickerStore;
  routeGoal: GoalRouter;
  createMission: MissionCreator;
}): MissionPicker {
  return async (projectId, n, goal, trace) => {
    if (goal !== undefined) {
      const routed = await options.routeGoal(projectId, goal, trace);
      if (routed.kind !== 'picker_needed') {
        throw new ConflictError(
          `The goal was routed as ${routed.kind}, not to a picker${routed.kind === 'auto_routed' ? ` (draft ${routed.mission_id})` : ''}`,
          'goal_not_picker',
          { kind: routed.kind },
        );
      }
    }
    const picker = await options.pickers.get(projectId);
    if (!picker) throw new NotFoundError(`Project "${projectId}" has not been shown a picker yet`, 'no_picker');
    const candidate = picker.candidates[n - 1];
    if (!candidate)
      throw new ValidationError(
        `The last picker (for "${picker.goal}") has ${picker.candidates.length} candidate(s); pick 1 to ${picker.candidates.length}`,
        'invalid_pick',
        { param: 'n' },
      );
    return options.createMission(projectId, { blueprint_json: candidate.blueprint_json, goal: picker.goal }, trace);
  };
}
