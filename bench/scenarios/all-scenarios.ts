import { aguiFanoutScenario } from './agui-fanout.scenario.js';
import { analyticsScenario } from './analytics.scenario.js';
import { memoryScenario } from './memory.scenario.js';
import { nonStreamScenario } from './non-stream.scenario.js';
import { postgresScenario } from './postgres.scenario.js';
import { profileScenario } from './profile.scenario.js';
import type { Scenario } from './scenario.js';
import { scriptScenario } from './script.scenario.js';
import { soakScenario } from './soak.scenario.js';
import { stalledReadersScenario } from './stalled-readers.scenario.js';
import { startupScenario } from './startup.scenario.js';
import { streamScenario } from './stream.scenario.js';
import { webhooksScenario } from './webhooks.scenario.js';

/**
 * In run order: start-up before any load, memory after every other load (its "after" reading covers them),
 * analytics last because it needs no gateway and loads the disk.
 */
export const DEFAULT_SCENARIOS: Scenario[] = [
  startupScenario,
  nonStreamScenario,
  postgresScenario,
  streamScenario,
  aguiFanoutScenario,
  webhooksScenario,
  memoryScenario,
  analyticsScenario,
];

/** Scenarios that are standalone scripts (issue 17's telemetry, the replicas one): run by name. */
const SCRIPT_SCENARIOS: Scenario[] = [
  scriptScenario(
    'telemetry-span-cost',
    'telemetry-span-cost.ts',
    "CPU time of one request's telemetry work, off vs on (in-process)",
  ),
  scriptScenario('telemetry', 'telemetry.ts', 'telemetry off vs on: req/s and CPU per request at c=32'),
  scriptScenario('replicas', 'replicas.ts', 'replicas on PostgreSQL + Redis (bench/replicas.ts)'),
];

/** `profile`, `soak`, `stalled-readers` and the script scenarios only run when named: they start gateways of their own and would not fit the time budget. */
export const ALL_SCENARIOS: Scenario[] = [
  ...DEFAULT_SCENARIOS,
  profileScenario,
  soakScenario,
  stalledReadersScenario,
  ...SCRIPT_SCENARIOS,
];
