/**
 * The mean of paired round-by-round differences (build B minus build A, each round loading both) with a margin
 * of two standard errors (≈ 95 %). On this machine one round's difference spreads over ±100–200 µs even
 * between two copies of the same build, so a target of tens of µs is judged by the mean over many rounds,
 * never by one round or by the spread. The interval covers the rounds' noise within one process each, not
 * differences between two processes of the same build, which can be larger (bench/README.md, 2026-11-25).
 */
export interface DifferenceEstimate {
  rounds: number;
  mean: number;
  /** Two standard errors of the mean; Infinity with fewer than two rounds. */
  margin: number;
}

export function estimateDifference(differences: readonly number[]): DifferenceEstimate {
  const rounds = differences.length;
  const mean = rounds === 0 ? NaN : differences.reduce((sum, value) => sum + value, 0) / rounds;
  if (rounds < 2) return { rounds, mean, margin: Infinity };
  const variance = differences.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (rounds - 1);
  return { rounds, mean, margin: 2 * Math.sqrt(variance / rounds) };
}

/** At most `limit`: true when the whole interval is below it, false when the whole interval is above, else null. */
export function withinLimit({ mean, margin }: DifferenceEstimate, limit: number): boolean | null {
  if (mean + margin <= limit) return true;
  if (mean - margin > limit) return false;
  return null;
}

export function formatEstimate({ rounds, mean, margin }: DifferenceEstimate): string {
  const sign = mean > 0 ? '+' : '';
  return `mean ${sign}${Math.round(mean)} ± ${Number.isFinite(margin) ? Math.round(margin) : '∞'} µs (2 standard errors, ${rounds} rounds)`;
}
