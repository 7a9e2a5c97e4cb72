import type { BenchTarget, TargetName } from '../targets/bench-target.js';

/**
 * Measures every target `rounds` times in A/B/C/D, D/C/B/A, A/B/C/D… order, so that a slow drift of the
 * machine (other load, thermal, GC of a long-lived process) falls on all targets alike, and so that no
 * target always runs right after the same one (the gateway right after `direct` at 28,000 req/s met a fake
 * upstream still busy collecting its garbage). An unrecorded warm-up of each target comes first, and
 * `settle` runs before every measurement.
 */
export async function interleave<T>(options: {
  targets: readonly BenchTarget[];
  rounds: number;
  measure: (target: BenchTarget, round: number) => Promise<T>;
  warmUp?: (target: BenchTarget) => Promise<unknown>;
  settle: () => Promise<unknown>;
}): Promise<Map<TargetName, T[]>> {
  const { targets, rounds, measure, warmUp, settle } = options;
  const results = new Map<TargetName, T[]>(targets.map((target) => [target.name, []]));
  if (warmUp) {
    for (const target of targets) {
      await settle();
      await warmUp(target);
    }
  }
  for (let round = 0; round < rounds; round += 1) {
    for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
      await settle();
      results.get(target.name)!.push(await measure(target, round));
    }
  }
  return results;
}
