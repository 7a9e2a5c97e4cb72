import type { TraceSpan } from '../../telemetry/index.js';
import type { AutopilotConfig } from '../../config/index.js';
import { AppError, ConflictError } from '../../errors.js';
import type { AutopilotInstanceStore } from '../autopilot-instance.store.js';
import type { AutopilotTier } from '../autopilot.types.js';
import type { Blueprint } from '../blueprints/blueprint.schema.js';
import type { BlueprintCandidate } from '../blueprints/blueprint-service.client.js';
import type { HostedBlueprints, ServiceGap } from '../blueprints/hosted-blueprints.js';
import type { LocalLibrary } from '../blueprints/local-library.js';
import type { PickerStore } from './picker.store.js';
import type { MissionService } from '../missions/mission.service.js';
import type { SlotExtractor } from './model-slot-extractor.js';
import { resolveGoalSlots } from './resolve-goal-slots.js';
import type { Logger } from '../../logger.js';

/** A candidate as routing offers it: the hosted service's or the local library's. */
export type RoutedCandidate = BlueprintCandidate & { source: 'service' | 'local' };

/** A candidate this installation cannot execute: reported with the first field that stops it, never offered. */
export interface SkippedCandidate {
  blueprint_id: string | null;
  score: number;
  field: string;
  message: string;
}

/** The answer to POST /goal, discriminated by kind (spec "Goal routing result"); `skipped` lists unusable candidates. */
export type RoutingResult =
  | {
      kind: 'auto_routed';
      mission_id: string;
      blueprint_id: string;
      preview: string;
      slots: Record<string, unknown>;
      score: number;
      missing_slots: string[];
      skipped: SkippedCandidate[];
    }
  | { kind: 'picker_needed'; candidates: RoutedCandidate[]; skipped: SkippedCandidate[] }
  | {
      kind: 'synthesis_needed';
      goal: string;
      reason: ServiceGap | 'no_candidates' | 'below_threshold';
      skipped: SkippedCandidate[];
    };

export interface GoalRouterOptions {
  config: Pick<AutopilotConfig, 'auto_route_threshold' | 'picker_threshold' | 'picker_top_k'>;
  instances: AutopilotInstanceStore;
  hosted: HostedBlueprints;
  missions: MissionService;
  /** The bundled and operator blueprints, ranked with the hosted candidates (not in tier skip: synthesis only). */
  local?: LocalLibrary;
  /** Validates a candidate's blueprint_json; throws 400 invalid_blueprint. */
  parseBlueprint(text: string): Blueprint;
  slotExtractor?: SlotExtractor;
  /** Keeps the last picker per project for `autopilot pick <n>`. */
  pickers?: PickerStore;
  now?: () => string;
  log?: Pick<Logger, 'warn'>;
}

export type GoalRouter = (projectId: string, goal: string, trace?: TraceSpan) => Promise<RoutingResult>;

/** Refuses new goals while autopilot is disabled (409); scheduled and running missions are not affected. */
export async function assertEnabled(instances: AutopilotInstanceStore): Promise<AutopilotTier> {
  const instance = await instances.get();
  if (!instance.enabled)
    throw new ConflictError('Autopilot is disabled: enable it with a tier first', 'autopilot_disabled');
  return instance.tier;
}

/** Routes a goal: auto-route at or above the auto threshold, a picker at or above the picker threshold, else synthesis. */
export function createGoalRouter(options: GoalRouterOptions): GoalRouter {
  const { config } = options;

  function usable(
    candidates: RoutedCandidate[],
    skipped: SkippedCandidate[],
  ): { candidate: RoutedCandidate; blueprint: Blueprint }[] {
    return [...candidates]
      .sort((a, b) => b.score - a.score)
      .flatMap((candidate) => {
        try {
          return [
            {
              candidate: { blueprint_json: candidate.blueprint_json, score: candidate.score, source: candidate.source },
              blueprint: options.parseBlueprint(candidate.blueprint_json),
            },
          ];
        } catch (error) {
          // A blueprint this installation cannot run (no graph, a cycle, unknown tools) is never offered; routing goes on.
          const entry = describeSkipped(candidate, error);
          skipped.push(entry);
          options.log?.warn(
            { score: candidate.score, blueprint_id: entry.blueprint_id, field: entry.field, reason: entry.message },
            'blueprint candidate skipped',
          );
          return [];
        }
      });
  }

  return async (projectId, goal, trace) => {
    const tier = await assertEnabled(options.instances);
    const skipped: SkippedCandidate[] = [];
    const answer = await options.hosted.retrieve(goal, tier);
    // Tier skip is synthesis only (spec 4.7), whatever the local library holds.
    if (!answer.ok && answer.reason === 'tier_skip')
      return { kind: 'synthesis_needed', goal, reason: answer.reason, skipped };
    const hosted: RoutedCandidate[] = answer.ok
      ? answer.value.map((candidate) => ({ ...candidate, source: 'service' as const }))
      : [];
    const local: RoutedCandidate[] = (options.local?.candidates(goal) ?? []).map(({ blueprint_json, score }) => ({
      blueprint_json,
      score,
      source: 'local' as const,
    }));
    const gap = answer.ok ? undefined : answer.reason;
    const ranked = usable([...hosted, ...local], skipped);
    const top = ranked[0];
    if (!top) return { kind: 'synthesis_needed', goal, reason: gap ?? 'no_candidates', skipped };
    if (top.candidate.score >= config.auto_route_threshold) {
      const slots = await resolveGoalSlots(top.blueprint, goal, options.slotExtractor);
      const mission = await options.missions.createDraft(
        projectId,
        {
          blueprint: top.blueprint,
          blueprintJson: top.candidate.blueprint_json,
          slots,
          goal,
        },
        trace,
      );
      const { preview, missingSlots } = options.missions.describe(mission);
      return {
        kind: 'auto_routed',
        mission_id: mission.mission_id,
        blueprint_id: mission.blueprint_id,
        preview,
        slots: mission.slots,
        score: top.candidate.score,
        missing_slots: missingSlots,
        skipped,
      };
    }
    const offered = ranked
      .filter((entry) => entry.candidate.score >= config.picker_threshold)
      .slice(0, config.picker_top_k);
    if (offered.length > 0) {
      const candidates = offered.map((entry) => entry.candidate);
      await options.pickers?.save(projectId, {
        goal,
        candidates,
        created_at: options.now?.() ?? new Date().toISOString(),
      });
      return { kind: 'picker_needed', candidates, skipped };
    }
    return { kind: 'synthesis_needed', goal, reason: gap ?? 'below_threshold', skipped };
  };
}

function describeSkipped(candidate: BlueprintCandidate, error: unknown): SkippedCandidate {
  let blueprintId: string | null = null;
  try {
    const parsed = JSON.parse(candidate.blueprint_json) as { id?: unknown; blueprint_id?: unknown };
    const id = parsed.id ?? parsed.blueprint_id;
    blueprintId = typeof id === 'string' || typeof id === 'number' ? String(id) : null;
  } catch {
    // Not JSON: the problem below says so.
  }
  const problems = (error instanceof AppError ? error.details?.errors : undefined) as
    { field: string; message: string }[] | undefined;
  const first = problems?.[0];
  return {
    blueprint_id: blueprintId,
    score: candidate.score,
    field: first?.field ?? 'blueprint_json',
    message: first
      ? problems.map((problem) => `${problem.field}: ${problem.message}`).join('; ')
      : (error as Error).message,
  };
}
