import { ConflictError, ValidationError } from '../../errors.js';
import { CANCELLABLE_MISSION_STATUSES, type Clock } from '../autopilot.types.js';
import type { MissionRunner } from '../execution/mission-runner.js';
import type { MissionScheduler } from './mission-scheduler.js';
import type { MissionStore } from './mission.store.js';
import type { MissionRecord } from './mission.types.js';
import { nextTick } from './next-run.js';

export interface TransitionDeps {
  missions: MissionStore;
  runner: MissionRunner;
  scheduler: MissionScheduler;
  clock: Clock;
  /** Re-reads the mission (404 when gone). */
  reload(mission: MissionRecord): Promise<MissionRecord>;
}

/** draft → scheduled (409 from any other state; 400 naming the slot while a required slot has no value); a one-off is due at once. */
export async function approveMission(
  deps: TransitionDeps,
  mission: MissionRecord,
  missingSlots: string[],
): Promise<MissionRecord> {
  if (mission.status !== 'draft') throw stateConflict(mission, 'approve', 'only a draft can be approved');
  if (missingSlots.length > 0) {
    const names = missingSlots.map((name) => `"${name}"`).join(', ');
    throw new ValidationError(
      `Required slot${missingSlots.length > 1 ? 's' : ''} ${names} ha${missingSlots.length > 1 ? 've' : 's'} no value: set ${missingSlots.length > 1 ? 'them' : 'it'} on the draft first`,
      'missing_slots',
      { param: `slots.${missingSlots[0]}`, missing_slots: missingSlots },
    );
  }
  const at = deps.clock();
  const nextRunAt = mission.schedule
    ? nextTick(mission.schedule, at, mission.policy, mission.mission_id)
    : at.toISOString();
  if (
    !(await deps.missions.transition(mission.mission_id, ['draft'], 'scheduled', at.toISOString(), {
      approved_at: at.toISOString(),
      next_run_at: nextRunAt,
    }))
  ) {
    throw stateConflict(await deps.reload(mission), 'approve', 'only a draft can be approved');
  }
  const approved = await deps.reload(mission);
  // It starts right after approval rather than at the next poll.
  if (!mission.schedule) void deps.scheduler.tick().catch(() => undefined);
  return approved;
}

/** Any state but completed/failed → cancelled, stopping a live execution; completed/failed stay as they are. */
export async function cancelMission(
  deps: TransitionDeps,
  mission: MissionRecord,
): Promise<{ cancelled: boolean; mission_id: string; status: MissionRecord['status'] }> {
  const cancelled = await deps.missions.transition(
    mission.mission_id,
    CANCELLABLE_MISSION_STATUSES,
    'cancelled',
    deps.clock().toISOString(),
    { next_run_at: null },
  );
  if (cancelled) deps.runner.cancel(mission.mission_id);
  const status = cancelled ? 'cancelled' : (await deps.reload(mission)).status;
  return { cancelled, mission_id: mission.mission_id, status };
}

/** scheduled → running now, keeping the schedule; 409 from any other state. */
export async function runMissionNow(deps: TransitionDeps, mission: MissionRecord): Promise<MissionRecord> {
  const at = deps.clock().toISOString();
  if (
    mission.status !== 'scheduled' ||
    !(await deps.missions.transition(mission.mission_id, ['scheduled'], 'running', at))
  ) {
    throw stateConflict(await deps.reload(mission), 'run', 'only a scheduled mission can be run now');
  }
  const running: MissionRecord = { ...mission, status: 'running', updated_at: at };
  deps.runner.launch(running, 'manual', null);
  return running;
}

/** scheduled → paused: no tick fires until it is resumed. */
export async function pauseMission(deps: TransitionDeps, mission: MissionRecord): Promise<MissionRecord> {
  if (!(await deps.missions.transition(mission.mission_id, ['scheduled'], 'paused', deps.clock().toISOString()))) {
    throw stateConflict(await deps.reload(mission), 'pause', 'only a scheduled mission can be paused');
  }
  return deps.reload(mission);
}

/** paused → scheduled at its next tick from now (a one-off: now), the failure count back at 0. */
export async function resumeMission(deps: TransitionDeps, mission: MissionRecord): Promise<MissionRecord> {
  const at = deps.clock();
  const nextRunAt = mission.schedule
    ? nextTick(mission.schedule, at, mission.policy, mission.mission_id)
    : at.toISOString();
  if (
    !(await deps.missions.transition(mission.mission_id, ['paused'], 'scheduled', at.toISOString(), {
      next_run_at: nextRunAt,
      consecutive_failures: 0,
    }))
  ) {
    throw stateConflict(await deps.reload(mission), 'resume', 'only a paused mission can be resumed');
  }
  return deps.reload(mission);
}

function stateConflict(mission: MissionRecord, action: string, rule: string): ConflictError {
  return new ConflictError(
    `Cannot ${action} mission ${mission.mission_id} in state ${mission.status}: ${rule}`,
    'invalid_mission_state',
    { status: mission.status },
  );
}
