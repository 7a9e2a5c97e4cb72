import type { Clock } from '../autopilot.types.js';
import type { BlueprintCandidate } from './blueprint-service.client.js';

const MAX_ENTRIES = 1000;

export interface CachedRetrieve {
  candidates: BlueprintCandidate[];
  ageSeconds: number;
}

/** Retrieve answers per goal, in memory; the oldest entry goes first once the cache is full. */
export interface RetrieveCache {
  get(goal: string): CachedRetrieve | undefined;
  set(goal: string, candidates: BlueprintCandidate[]): void;
}

/** Goals that differ only in case or spacing share an entry. */
export function normalizeGoal(goal: string): string {
  return goal.trim().replace(/\s+/g, ' ').toLowerCase();
}

export function createRetrieveCache(clock: Clock): RetrieveCache {
  const entries = new Map<string, { candidates: BlueprintCandidate[]; storedAt: number }>();
  return {
    get(goal) {
      const entry = entries.get(normalizeGoal(goal));
      return entry && { candidates: entry.candidates, ageSeconds: (clock().getTime() - entry.storedAt) / 1000 };
    },
    set(goal, candidates) {
      const key = normalizeGoal(goal);
      entries.delete(key);
      entries.set(key, { candidates, storedAt: clock().getTime() });
      if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    },
  };
}
