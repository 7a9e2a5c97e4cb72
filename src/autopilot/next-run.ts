import { parseCron } from './slot-types.js';

/** The first tick of a 5-field cron schedule strictly after `after` (UTC), as ISO 8601; null when none follows. */
export function nextRunAfter(schedule: string, after: Date): string | null {
  return parseCron(schedule).nextRun(after)?.toISOString() ?? null;
}
