import type { Measurement, Ratio } from './bench-results.js';
import { round } from './sample-stats.js';

/** The pairs the issue asks for, plus the guardrails-on gateway against the same baselines. */
export const RATIO_PAIRS: [string, string][] = [
  ['ours', 'direct'],
  ['ours', 'portkey'],
  ['ours+guardrails', 'direct'],
  ['ours+guardrails', 'portkey'],
  ['portkey', 'direct'],
  // The PostgreSQL + Redis deployment against the SQLite one (issue 20: at least 60 % of its requests/s).
  ['ours+pg', 'ours'],
  ['ours+pg', 'portkey'],
];

/** Ratios of `metrics` between every pair of targets measured in the same case (so in the same rounds). */
export function computeRatios(measurements: readonly Measurement[], metrics: readonly string[]): Ratio[] {
  const ratios: Ratio[] = [];
  const cases = [...new Set(measurements.map((measurement) => measurement.case))];
  for (const name of cases) {
    const byTarget = new Map(
      measurements
        .filter((measurement) => measurement.case === name)
        .map((measurement) => [measurement.target, measurement.metrics]),
    );
    for (const [numerator, denominator] of RATIO_PAIRS) {
      const top = byTarget.get(numerator);
      const bottom = byTarget.get(denominator);
      if (!top || !bottom) continue;
      for (const metric of metrics) {
        const a = top[metric];
        const b = bottom[metric];
        if (a === undefined || b === undefined) continue;
        ratios.push({
          case: name,
          metric,
          pair: `${numerator}/${denominator}`,
          ratio: a === null || b === null || b === 0 ? null : round(a / b, 3),
          difference: a === null || b === null ? null : round(a - b, 2),
        });
      }
    }
  }
  return ratios;
}
