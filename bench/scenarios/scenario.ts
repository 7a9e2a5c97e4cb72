import type { LoadWorker } from '../load/load-worker-client.js';
import type { ScenarioResult } from '../report/bench-results.js';
import type { BenchTarget, TargetName } from '../targets/bench-target.js';
import type { GatewayRuntime } from '../processes/ensure-build.js';
import type { GatewayInstance } from '../targets/start-gateway.js';
import type { PortkeyInstance } from '../targets/start-portkey.js';
import type { Upstreams } from '../targets/start-upstreams.js';

/** The processes every load scenario shares, started once per `npm run bench`. */
export interface BenchServices {
  upstreams: Upstreams;
  ours: GatewayInstance;
  guarded: GatewayInstance;
  portkey: PortkeyInstance;
  /** direct, ours, ours+guardrails, portkey: the order of every interleaved round. */
  targets: BenchTarget[];
  worker: LoadWorker;
  /** Waits until no bench process uses CPU, so that one measurement's leftovers never land in the next. */
  settle: () => Promise<boolean>;
  /** RSS of each gateway right after it started, before any load. */
  idleRssMb: Partial<Record<TargetName, number>>;
}

export interface BenchContext {
  runtime: GatewayRuntime;
  /** Present when some selected scenario needs the shared processes. */
  services?: BenchServices;
  log: (line: string) => void;
}

export type ScenarioOutput = Pick<ScenarioResult, 'measurements' | 'ratios' | 'notes'>;

export interface Scenario {
  name: string;
  description: string;
  /** False for scenarios that start their own processes or none (start-up, analytics). */
  needsServices: boolean;
  run(context: BenchContext): Promise<ScenarioOutput>;
}

/** The shared processes, or an error naming the scenario that needed them. */
export function requireServices(context: BenchContext): BenchServices {
  if (!context.services) throw new Error('the shared bench processes were not started');
  return context.services;
}
