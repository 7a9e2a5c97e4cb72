import { NotFoundError } from '../../errors.js';
import type { LocalBlueprint } from './local-blueprints.js';
import { createLocalRanker, type LocalRanker } from '../routing/rank-local-blueprints.js';

/** A routing candidate from the local library: the hosted service's shape plus where it came from. */
export interface LocalCandidate {
  blueprint_json: string;
  score: number;
  source: 'local';
  entry: LocalBlueprint;
}

/** The bundled and operator blueprints, listed, looked up and ranked against goals. */
export interface LocalLibrary {
  list(): LocalBlueprint[];
  /** 404 blueprint_not_found when no local blueprint has that id. */
  get(id: string): LocalBlueprint;
  /** Candidates for a goal, best first, scores calibrated to the routing thresholds. */
  candidates(goal: string): LocalCandidate[];
}

export function createLocalLibrary(entries: LocalBlueprint[]): LocalLibrary {
  const byId = new Map(entries.map((entry) => [entry.blueprint.id, entry]));
  // Built on the first goal, not at start-up: indexing and calibrating the bundled library costs about 0.1 s.
  let rank: LocalRanker | undefined;
  const ranker = () => (rank ??= createLocalRanker(entries.map((entry) => entry.blueprint)));
  return {
    list: () => [...entries],
    get(id) {
      const entry = byId.get(id);
      if (!entry) throw new NotFoundError(`No local blueprint "${id}"`, 'blueprint_not_found');
      return entry;
    },
    candidates: (goal) =>
      ranker()(goal).map(({ id, score }) => ({
        blueprint_json: byId.get(id)!.json,
        score,
        source: 'local' as const,
        entry: byId.get(id)!,
      })),
  };
}
