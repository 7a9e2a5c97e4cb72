import { ConflictError, NotFoundError, ValidationError } from '../../errors.js';
import type { Clock, ExecutionTrigger } from '../autopilot.types.js';
import type { Blueprint } from '../blueprints/blueprint.schema.js';
import { editBlueprintNode } from '../blueprints/edit-blueprint-node.js';
import type { ExecutionStore } from '../execution/execution.store.js';
import type { HealingRecommendation } from './healing.js';
import type { MissionRunner } from '../execution/mission-runner.js';
import type { MissionService } from '../missions/mission.service.js';
import type { MissionStore } from '../missions/mission.store.js';
import type { MissionRecord } from '../missions/mission.types.js';
import { nextTick } from '../missions/next-run.js';
import { resolveSlots } from '../routing/resolve-slots.js';
import type { Logger } from '../../logger.js';

export interface MissionHealerOptions {
  missions: MissionService;
  store: MissionStore;
  executions: ExecutionStore;
  runner: MissionRunner;
  clock: Clock;
  loadBlueprint(mission: MissionRecord): Blueprint;
  modelExists(model: string): boolean;
  /** autopilot.auto_heal: apply safe actions by itself, at most `max_per_mission` times in a row. */
  autoHeal: { enabled: boolean; max_per_mission: number };
  log?: Pick<Logger, 'warn'>;
}

/** Applies healing recommendations: changes the mission as the action says, then re-runs it from its failed step. */
export interface MissionHealer {
  apply(
    projectId: string,
    missionId: string,
    recommendationId: string,
    params?: Record<string, unknown>,
  ): Promise<MissionRecord>;
  /** After a failure: applies the first safe recommendation when auto_heal is on and the mission has tries left. */
  autoHeal(missionId: string): Promise<void>;
}

type Changes = Partial<Pick<MissionRecord, 'blueprint_json' | 'slots' | 'budget_usd' | 'next_run_at'>>;

export function createMissionHealer(options: MissionHealerOptions): MissionHealer {
  function required<T>(
    params: Record<string, unknown>,
    name: string,
    check: (value: unknown) => value is T,
    what: string,
  ): T {
    const value = params[name];
    if (!check(value))
      throw new ValidationError(`This action needs params.${name}: ${what}`, 'invalid_heal_param', {
        param: `params.${name}`,
      });
    return value;
  }
  const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
  const isNumber = (value: unknown): value is number =>
    typeof value === 'number' && Number.isFinite(value) && value > 0;

  function changesFor(
    mission: MissionRecord,
    recommendation: HealingRecommendation,
    params: Record<string, unknown>,
  ): Changes {
    const apply = recommendation.apply!;
    const editNode = (edit: (node: Record<string, unknown>) => Record<string, unknown>) => {
      const nodeId = required(params, 'node_id', isText, 'the node to change');
      const json = editBlueprintNode(mission.blueprint_json, nodeId, edit);
      if (!json)
        throw new ValidationError(`No node "${nodeId}" in the mission's blueprint`, 'invalid_heal_param', {
          param: 'params.node_id',
        });
      return { blueprint_json: json };
    };
    switch (apply.action) {
      case 'retry_step':
        return {};
      case 'retry_with_model': {
        const model = required(params, 'model', isText, 'a configured "<provider>/<model id>"');
        if (!options.modelExists(model))
          throw new ValidationError(`Model "${model}" names a provider that is not configured`, 'invalid_heal_param', {
            param: 'params.model',
          });
        return editNode((node) => ({ ...node, model, model_ref: undefined }));
      }
      case 'disable_tool': {
        const tool = required(params, 'tool', isText, 'the tool to take away from the node');
        return editNode((node) => ({
          ...node,
          tools: (Array.isArray(node.tools) ? node.tools : []).filter(
            (item) => (typeof item === 'object' && item !== null ? (item as { name?: unknown }).name : item) !== tool,
          ),
        }));
      }
      case 'raise_budget':
        return { budget_usd: required(params, 'budget_usd', isNumber, 'the new budget in USD') };
      case 'edit_slot': {
        const slot = required(params, 'slot', isText, 'the slot to change');
        const blueprint = options.loadBlueprint(mission);
        const resolved = resolveSlots(blueprint.slots, { explicit: { ...mission.slots, [slot]: params.value } });
        if (resolved.errors.length > 0)
          throw new ValidationError(
            `invalid slots: ${resolved.errors.map((error) => `${error.field}: ${error.message}`).join('; ')}`,
            'invalid_slot',
            { param: resolved.errors[0].field },
          );
        return { slots: resolved.values };
      }
    }
  }

  async function apply(
    mission: MissionRecord,
    recommendationId: string,
    overrides: Record<string, unknown>,
    trigger: ExecutionTrigger,
  ): Promise<MissionRecord> {
    if (mission.status !== 'failed' && mission.status !== 'paused') {
      throw new ConflictError(
        `Mission ${mission.mission_id} is ${mission.status}: healing applies to a failed or paused mission`,
        'invalid_mission_state',
        { status: mission.status },
      );
    }
    const recommendation = (await options.missions.healing(mission.project_id, mission.mission_id)).find(
      (item) => item.id === recommendationId,
    );
    if (!recommendation)
      throw new NotFoundError(
        `Mission ${mission.mission_id} has no recommendation "${recommendationId}"`,
        'recommendation_not_found',
      );
    if (!recommendation.apply)
      throw new ConflictError(
        `Recommendation "${recommendationId}" is advice only: it has no action to apply`,
        'not_applicable',
      );
    const params = { ...recommendation.apply.params, ...overrides };
    const changes = changesFor(mission, recommendation, params);
    const changed = { ...mission, ...changes };
    // The changed blueprint must still run here (a model that exists, a tool list the graph accepts).
    options.loadBlueprint(changed);
    const at = options.clock();
    changes.next_run_at = mission.schedule ? nextTick(mission.schedule, at, mission.policy, mission.mission_id) : null;
    const failed = (await options.executions.listForMission(mission.mission_id, 20)).find(
      (execution) => execution.status === 'failed',
    );
    if (!(await options.store.reopenForHealing(mission.mission_id, changes, at.toISOString()))) {
      throw new ConflictError(`Mission ${mission.mission_id} changed state meanwhile`, 'invalid_mission_state');
    }
    options.runner.launch({ ...changed, ...changes, status: 'running' }, trigger, null, failed?.execution_id);
    return options.missions.get(mission.project_id, mission.mission_id);
  }

  return {
    apply: async (projectId, missionId, recommendationId, params = {}) =>
      apply(await options.missions.get(projectId, missionId), recommendationId, params, 'heal'),
    async autoHeal(missionId) {
      if (!options.autoHeal.enabled) return;
      const mission = await options.store.getById(missionId);
      if (!mission || (mission.status !== 'failed' && mission.status !== 'paused')) return;
      const history = await options.executions.listForMission(missionId, 50);
      const lastSuccess = history.findIndex((execution) => execution.status === 'completed');
      const tries = (lastSuccess === -1 ? history : history.slice(0, lastSuccess)).filter(
        (execution) => execution.trigger === 'auto_heal',
      ).length;
      if (tries >= options.autoHeal.max_per_mission)
        return void options.log?.warn(
          { mission_id: missionId, tries },
          'auto_heal limit reached: the mission waits for an operator',
        );
      const safe = (await options.missions.healing(mission.project_id, missionId)).find((item) => item.apply?.safe);
      if (safe) await apply(mission, safe.id, {}, 'auto_heal');
    },
  };
}
