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

/** Scenarios that are standalone scripts (the telemetry ones, the replicas one). */
const SCRIPT_SCENARIOS: Scenario[] = [
  scriptScenario(
    'telemetry-span-cost',
    'telemetry-span-cost.ts',
    "CPU time of one request's telemetry work, off vs on (in-process)",
  ),
  scriptScenario('telemetry', 'telemetry.ts', 'telemetry off vs on: req/s and CPU per request at c=32'),
  scriptScenario('replicas', 'replicas.ts', 'replicas on PostgreSQL + Redis (bench/replicas.ts)'),
];

/**
 * Every scenario, in run order: start-up before any load; the ones with processes of their own (stalled
 * readers, telemetry, replicas, profile, soak) after the shared load scenarios; memory after every other
 * load (its "after" reading covers them); analytics last because it needs no gateway and loads the disk.
 * The soak runs 60 s in the full run and 300 s when named alone (bench-settings.ts).
 */
export const SCENARIOS: Scenario[] = [
  startupScenario,
  nonStreamScenario,
  postgresScenario,
  streamScenario,
  aguiFanoutScenario,
  webhooksScenario,
  stalledReadersScenario,
  ...SCRIPT_SCENARIOS,
  profileScenario,
  soakScenario,
  memoryScenario,
  analyticsScenario,
];
