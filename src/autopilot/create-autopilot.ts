import { randomBytes } from 'node:crypto';
import type { RunService } from '../agents/index.js';
import type { AutopilotConfig, ProvidersConfig } from '../config/index.js';
import type { DatabaseHandle } from '../db/index.js';
import type { ModelClient } from '../llm/index.js';
import { createAutopilotInstanceStore } from './autopilot-instance.store.js';
import { createAutopilotStatusService, type AutopilotStatusService } from './autopilot-status.service.js';
import { systemClock, type Clock } from './autopilot.types.js';
import { createBlueprintChecks } from './blueprints/blueprint-checks.js';
import { createBlueprintServiceClient } from './blueprints/blueprint-service.client.js';
import { createExecutionStore } from './execution/execution.store.js';
import { createGoalRouter, type GoalRouter } from './routing/goal-router.js';
import { createHostedBlueprints } from './blueprints/hosted-blueprints.js';
import { createLearningLoop, type LearningLoop } from './learning/learning-loop.js';
import { createMissionCreator, type MissionCreator } from './missions/mission-creator.js';
import { createMissionHealer, type MissionHealer } from './healing/mission-healer.js';
import { createMissionPicker, type MissionPicker } from './routing/mission-picker.js';
import { createPickerStore } from './routing/picker.store.js';
import { createMissionRunner } from './execution/mission-runner.js';
import { createMissionScheduler, type ExecutionLease, type MissionScheduler } from './missions/mission-scheduler.js';
import { createMissionService, type MissionService } from './missions/mission.service.js';
import { createMissionStore } from './missions/mission.store.js';
import { createModelSlotExtractor } from './routing/model-slot-extractor.js';
import type { NodeAgents } from './execution/node-agents.js';
import { createSynthesizer, type Synthesizer } from './routing/synthesizer.js';
import type { Blueprint } from './blueprints/blueprint.schema.js';
import { BUNDLED_BLUEPRINTS_DIR, loadLocalBlueprints, type LocalBlueprint } from './blueprints/local-blueprints.js';
import { createLocalLibrary } from './blueprints/local-library.js';
import { parseBlueprintJson } from './blueprints/validate-blueprint.js';
import type { Logger } from '../logger.js';

export interface AutopilotOptions {
  config: AutopilotConfig;
  db: DatabaseHandle['db'];
  runs: RunService;
  /** The registry the run service resolves agents from; node agents are registered on it. */
  nodeAgents: NodeAgents;
  models: ModelClient;
  toolNames: () => string[];
  /** Defaults to the system clock; tests inject one to move time. */
  clock?: Clock;
  /** For the hosted service; defaults to the global fetch. */
  fetch?: typeof fetch;
  log?: Logger;
  /** Where the curator writes datasets (`datasets/`) and fine-tunes keep their files (`fine-tunes/`). */
  dataDir: string;
  /** The configured providers: the fine-tune backends reach their APIs through them. */
  providers: ProvidersConfig;
  /** Scrubs personal data from curated samples (the guardrail PII detectors). */
  scrub: (text: string) => string;
  /** Defaults to the package's config/blueprints/. */
  bundledBlueprintsDir?: string;
}

/** Everything autopilot does, built from its config section and the runtime it runs missions on. */
export interface Autopilot {
  status: AutopilotStatusService;
  routeGoal: GoalRouter;
  synthesize: Synthesizer;
  createMission: MissionCreator;
  /** Applies healing recommendations (and, with autopilot.auto_heal, the safe ones by itself). */
  heal: MissionHealer;
  /** A draft from the n-th candidate of the project's last picker (or a fresh one for a goal). */
  pick: MissionPicker;
  missions: MissionService;
  scheduler: MissionScheduler;
  /** The local blueprint library (bundled and autopilot.blueprints_dir) and validation against this installation. */
  blueprints: { list(): LocalBlueprint[]; get(id: string): LocalBlueprint; validate(json: string): Blueprint };
  /** Curator, fine-tune jobs, active models and rollback. */
  learning: LearningLoop;
  /**
   * Fires due missions and starts polling. Executions a stopped process left running are recovered: all of them
   * at once when this process is its database's only one, else (`lease`) each once its lease lapsed
   * (mission-scheduler.ts).
   */
  start(options: { lease?: ExecutionLease }): Promise<void>;
  /** Resolves once every execution started so far has ended (tests). */
  idle(): Promise<void>;
  /** Stops the scheduler and waits for executions, interrupting those still going after `timeoutMs`. */
  close(timeoutMs: number): Promise<void>;
}

export async function createAutopilot(options: AutopilotOptions): Promise<Autopilot> {
  const { config, log } = options;
  const clock = options.clock ?? systemClock;
  const instances = createAutopilotInstanceStore(options.db);
  await instances.ensure(`inst_${randomBytes(12).toString('hex')}`, clock().toISOString());
  const client = config.service_url
    ? createBlueprintServiceClient({
        baseUrl: config.service_url,
        timeoutMs: config.request_timeout_ms,
        clock,
        fetch: options.fetch,
        onQuota: (quota) => void instances.setQuota(quota, clock().toISOString()).catch(() => undefined),
      })
    : undefined;
  const hosted = createHostedBlueprints({ config, client, instances, clock, log });
  const checks = createBlueprintChecks({
    toolNames: options.toolNames,
    models: options.models,
    defaultModel: config.model,
  });
  const parseBlueprint = (text: string) => parseBlueprintJson(text, checks);
  const local = createLocalLibrary(
    loadLocalBlueprints({
      bundledDir: config.bundled_blueprints ? (options.bundledBlueprintsDir ?? BUNDLED_BLUEPRINTS_DIR) : undefined,
      operatorDir: config.blueprints_dir,
      checks,
      log,
    }),
  );
  const missionStore = createMissionStore(options.db);
  const pickers = createPickerStore(options.db);
  const executions = createExecutionStore(options.db);
  const loadBlueprint = (mission: { blueprint_json: string }) =>
    parseBlueprintJson(mission.blueprint_json, checks, 'blueprint');
  const settings = {
    maxIterations: config.node_max_iterations,
    temperature: config.node_temperature,
    defaultModel: config.model,
  };
  const now = () => clock().toISOString();
  const learning = createLearningLoop({
    config,
    db: options.db,
    providers: options.providers,
    models: options.models,
    dataDir: options.dataDir,
    scrub: options.scrub,
    now,
    fetch: options.fetch,
    log,
  });
  const stepLearning = {
    modelFor: (blueprint: Blueprint) => learning.modelFor(blueprint),
    // A sample that cannot be written never fails the mission whose step produced it.
    capture: (blueprint: Parameters<LearningLoop['capture']>[0], step: Parameters<LearningLoop['capture']>[1]) =>
      learning
        .capture(blueprint, step)
        .catch((error: unknown) =>
          log?.error({ err: error, node_id: step.node_id }, 'curator could not capture a step'),
        ),
  };
  let healer: MissionHealer | undefined;
  // Auto-heal runs after a failure settled; its own failure never fails the execution that triggered it.
  const onFailed = (missionId: string) =>
    healer!
      .autoHeal(missionId)
      .catch((error: unknown) => log?.error({ err: error, mission_id: missionId }, 'auto_heal could not apply'));
  const runner = createMissionRunner({
    runs: options.runs,
    nodeAgents: options.nodeAgents,
    missions: missionStore,
    executions,
    settings,
    clock,
    loadBlueprint,
    learning: stepLearning,
    onFailed,
    log,
  });
  const scheduler = createMissionScheduler({
    missions: missionStore,
    executions,
    runner,
    clock,
    pollMs: config.scheduler_poll_ms,
    log,
  });
  const missions = createMissionService({
    missions: missionStore,
    executions,
    runner,
    scheduler,
    clock,
    loadBlueprint,
  });
  healer = createMissionHealer({
    missions,
    store: missionStore,
    executions,
    runner,
    clock,
    loadBlueprint,
    modelExists: checks.modelExists,
    autoHeal: config.auto_heal,
    log,
  });
  const slotExtractor = config.model
    ? createModelSlotExtractor({ models: options.models, model: config.model, clock, log })
    : undefined;
  const model = config.model ? { client: options.models, ref: config.model } : undefined;
  const routeGoal = createGoalRouter({
    config,
    instances,
    hosted,
    missions,
    local,
    parseBlueprint,
    slotExtractor,
    pickers,
    now,
    log,
  });
  const createMission = createMissionCreator({ instances, missions, parseBlueprint, slotExtractor });
  return {
    status: createAutopilotStatusService({ instances, serviceUrl: config.service_url, clock }),
    routeGoal,
    pick: createMissionPicker({ pickers, routeGoal, createMission }),
    synthesize: createSynthesizer({
      instances,
      hosted,
      missions,
      local,
      minLocalScore: config.picker_threshold,
      parseBlueprint,
      model,
      availableTools: options.toolNames,
      slotExtractor,
      log,
    }),
    blueprints: {
      list: () => local.list(),
      get: (id) => local.get(id),
      validate: (json) => parseBlueprintJson(json, checks, 'blueprint_json'),
    },
    createMission,
    heal: healer,
    missions,
    scheduler,
    learning,
    async start(startOptions) {
      await learning.resume();
      await scheduler.start(startOptions);
    },
    async idle() {
      // A tick asked for (e.g. by an approval) may not have launched its executions yet.
      await scheduler.settled();
      await runner.idle();
    },
    async close(timeoutMs) {
      scheduler.stop();
      await Promise.all([runner.drain(timeoutMs), learning.close()]);
    },
  };
}
