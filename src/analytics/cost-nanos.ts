// Costs are kept to 1e-9 USD. Summing integer nano-dollars is exact on both engines and in JS, so the
// total of a window equals the sum of its runs' costs however the rows are grouped or ordered.

const NANOS_PER_USD = 1_000_000_000;

/** The cost rounded to 1e-9 USD: the value stored, and the value a run should add up. */
export function roundUsd(usd: number): number {
  return toCostNanos(usd) / NANOS_PER_USD;
}

export function toCostNanos(usd: number): number {
  return Number.isFinite(usd) ? Math.round(usd * NANOS_PER_USD) : 0;
}

export function fromCostNanos(nanos: number): number {
  return nanos / NANOS_PER_USD;
}
