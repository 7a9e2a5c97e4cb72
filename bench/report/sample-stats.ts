export interface SampleStats {
  count: number;
  mean: number | null;
  p50: number | null;
  p90: number | null;
  p99: number | null;
  max: number | null;
}

/** Nearest-rank percentiles of raw samples, rounded to 0.01 (ms). */
export function summarize(samples: readonly number[]): SampleStats {
  if (samples.length === 0) return { count: 0, mean: null, p50: null, p90: null, p99: null, max: null };
  const sorted = Float64Array.from(samples).sort();
  const at = (quantile: number) =>
    round(sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(quantile * sorted.length) - 1))]);
  let sum = 0;
  for (const value of sorted) sum += value;
  return {
    count: sorted.length,
    mean: round(sum / sorted.length),
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: round(sorted[sorted.length - 1]),
  };
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
