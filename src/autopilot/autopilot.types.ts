import type { MissionExecutionsTable } from '../db/index.js';

/** The autopilot tiers (spec 4.7): `skip` bypasses the hosted service and uses synthesis only. */
export const AUTOPILOT_TIERS = ['anonymous', 'free', 'skip'] as const;
export type AutopilotTier = (typeof AUTOPILOT_TIERS)[number];

/** Mission states; the spec names draft, scheduled, completed and failed, the rest are ours (docs/decisions/0049-autopilot-missions.md). */
export const MISSION_STATUSES = [
  'draft',
  'scheduled',
  'running',
  'paused',
  'completed',
  'failed',
  'cancelled',
] as const;
export type MissionStatus = (typeof MISSION_STATUSES)[number];

/** States a DELETE moves to cancelled: all but completed and failed (a cancelled one stays cancelled). */
export const CANCELLABLE_MISSION_STATUSES: readonly MissionStatus[] = [
  'draft',
  'scheduled',
  'running',
  'paused',
  'cancelled',
];

/** `heal`: an operator applied a healing action; `auto_heal`: autopilot.auto_heal applied a safe one. */
export type ExecutionTrigger = MissionExecutionsTable['trigger'];
/** `skipped`: a tick that did not run (an overlap, or missed beyond the catch-up window), recorded with why. */
export type ExecutionStatus = MissionExecutionsTable['status'];

/** What a tick does while the mission's previous execution still runs. */
export const OVERLAP_POLICIES = ['skip', 'buffer_one', 'allow'] as const;
export type OverlapPolicy = (typeof OVERLAP_POLICIES)[number];

/** The time source of every autopilot decision (cache age, schedules, timestamps); tests inject their own. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/** The project a request belongs to when it sends no X-Project-ID. */
export const DEFAULT_PROJECT_ID = 'default';
