import { createId } from '../../ids.js';
import type { ExecutionStore } from '../execution/execution.store.js';
import type { MissionRecord } from './mission.types.js';

/** A tick that did not run, kept in the run history with why (`overlap` or `missed_tick`). */
export async function recordSkippedTick(
  executions: ExecutionStore,
  mission: MissionRecord,
  tick: string,
  code: 'overlap' | 'missed_tick',
  message: string,
  now: string,
): Promise<void> {
  await executions.insert({
    execution_id: createId('job'),
    mission_id: mission.mission_id,
    project_id: mission.project_id,
    blueprint_id: mission.blueprint_id,
    trigger: 'schedule',
    scheduled_for: tick,
    status: 'skipped',
    started_at: now,
    finished_at: now,
    duration_ms: 0,
    cost_usd: 0,
    error_code: code,
    error_message: message,
    failure_class: null,
  });
}
