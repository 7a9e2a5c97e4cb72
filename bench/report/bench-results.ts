import type { TargetCheck } from './targets.js';

/** One target (or process) in one case of a scenario, e.g. `portkey` in `closed loop c=32`. */
export interface Measurement {
  case: string;
  /** A TargetName, or another name for a measurement of its own. */
  target: string;
  /** Every number measured, by name (`rps`, `p50_ms`…); null where there was nothing to measure. */
  metrics: Record<string, number | null>;
  /** The same numbers per interleaved round, to show the drift that interleaving cancels. */
  rounds?: Record<string, number | null>[];
}

/** `numerator / denominator` of one metric in one case, and their difference (the "added" ms for latencies). */
export interface Ratio {
  case: string;
  metric: string;
  pair: string;
  ratio: number | null;
  difference: number | null;
}

export interface ScenarioResult {
  name: string;
  /** What it measures and how, one line, for the report. */
  description: string;
  measurements: Measurement[];
  ratios: Ratio[];
  notes: string[];
  seconds: number;
  /** 1/5/15-minute load average when the scenario started: how busy the machine was besides the bench. */
  load_average: number[];
}

export interface BenchResults {
  generated_at: string;
  command: string;
  machine: Record<string, string | number>;
  load_average: { before: number[]; after: number[] };
  versions: Record<string, string>;
  gateway_runtime: string;
  settings: unknown;
  scenarios: ScenarioResult[];
  /** Scenarios that failed, with their error: the rest still ran. */
  failures: { scenario: string; error: string }[];
  total_seconds: number;
  /** The issues' targets, each with what this run measured of it (report/targets.ts). */
  targets?: TargetCheck[];
}
