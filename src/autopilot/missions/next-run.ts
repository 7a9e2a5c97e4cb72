import { createHash } from 'node:crypto';
import type { SchedulePolicy } from './mission.types.js';
import { parseCron } from '../routing/slot-types.js';

/**
 * When a recurring mission next runs: its cron's first tick after `after`, read in the policy's time zone,
 * plus the jitter. The jitter is a stable function of mission and tick, so every replica (and a restart)
 * computes the same time and the tick claim stays a single conditional update.
 */
export function nextTick(
  schedule: string,
  after: Date,
  policy: Pick<SchedulePolicy, 'timezone' | 'jitter_seconds'>,
  missionId: string,
): string | null {
  const tick = parseCron(schedule, policy.timezone ?? 'UTC').nextRun(after);
  if (!tick) return null;
  return new Date(tick.getTime() + jitterMs(missionId, tick, policy.jitter_seconds)).toISOString();
}

function jitterMs(missionId: string, tick: Date, jitterSeconds: number): number {
  if (jitterSeconds <= 0) return 0;
  const digest = createHash('sha256').update(`${missionId}\n${tick.toISOString()}`).digest();
  return Math.round((digest.readUInt32BE(0) / 0xffffffff) * jitterSeconds) * 1000;
}

/** The newest tick at or before `now`, counting from the missed tick `first`, and how many were missed. */
export function newestMissedTick(
  schedule: string,
  first: string,
  now: Date,
  policy: Pick<SchedulePolicy, 'timezone' | 'jitter_seconds'>,
  missionId: string,
): { newest: string; missed: number } {
  let newest = first;
  let missed = 1;
  // Bounded: a minutely cron missed for a year is 525,600 ticks; nobody needs the exact count past this.
  for (let guard = 0; guard < 100_000; guard += 1) {
    const next = nextTick(schedule, new Date(newest), policy, missionId);
    if (!next || next > now.toISOString()) break;
    newest = next;
    missed += 1;
  }
  return { newest, missed };
}
