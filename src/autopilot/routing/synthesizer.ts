import type { TraceSpan } from '../../telemetry/index.js';
import { UnavailableError, UpstreamError } from '../../errors.js';
import type { ModelClient } from '../../llm/index.js';
import type { AutopilotInstanceStore } from '../autopilot-instance.store.js';
import type { AutopilotTier } from '../autopilot.types.js';
import { blueprintWriterPrompt } from '../blueprints/blueprint-writer-prompt.js';
import type { Blueprint } from '../blueprints/blueprint.schema.js';
import { extractJsonObject } from './extract-json-object.js';
import { assertEnabled } from './goal-router.js';
import type { HostedBlueprints } from '../blueprints/hosted-blueprints.js';
import type { LocalLibrary } from '../blueprints/local-library.js';
import type { MissionService } from '../missions/mission.service.js';
import type { MissionRecord } from '../missions/mission.types.js';
import type { SlotExtractor } from './model-slot-extractor.js';
import { resolveGoalSlots } from './resolve-goal-slots.js';
import type { Logger } from '../../logger.js';

export interface SynthesisResult {
  mission: MissionRecord;
  /** The hosted service wrote it, a local library blueprint fitted the goal, or autopilot.model wrote it. */
  source: 'service' | 'local' | 'model';
  /** The service's confidence, or the local blueprint's routing score. */
  confidence: number | null;
}

export interface SynthesizerOptions {
  instances: AutopilotInstanceStore;
  hosted: HostedBlueprints;
  missions: MissionService;
  /** Local blueprints: the best one at or above `minLocalScore` is used before the model writes one. */
  local?: LocalLibrary;
  /** autopilot.picker_threshold: a local blueprint weaker than a picker offer is not a fit. */
  minLocalScore: number;
  parseBlueprint(text: string): Blueprint;
  /** `autopilot.model` and the client that reaches it; without them only the hosted service can synthesize. */
  model?: { client: ModelClient; ref: string };
  availableTools(): string[];
  slotExtractor?: SlotExtractor;
  log?: Pick<Logger, 'warn'>;
}

export type Synthesizer = (projectId: string, goal: string, trace?: TraceSpan) => Promise<SynthesisResult>;

interface Written {
  blueprint: Blueprint;
  json: string;
  confidence: number | null;
}

/**
 * Writes a blueprint for a goal: the hosted `generate` first (tiers anonymous/free), else the best local
 * blueprint that fits the goal (slots filled from it), else the autopilot model.
 */
export function createSynthesizer(options: SynthesizerOptions): Synthesizer {
  function fromLocal(goal: string): Written | undefined {
    const best = options.local?.candidates(goal)[0];
    if (!best || best.score < options.minLocalScore) return undefined;
    return {
      blueprint: options.parseBlueprint(best.blueprint_json),
      json: best.blueprint_json,
      confidence: best.score,
    };
  }

  async function fromService(goal: string, projectId: string, tier: AutopilotTier): Promise<Written | { gap: string }> {
    const answer = await options.hosted.generate(
      goal,
      { project_id: projectId, available_tools: options.availableTools() },
      tier,
    );
    if (!answer.ok) return { gap: answer.reason };
    try {
      return {
        blueprint: options.parseBlueprint(answer.value.blueprint_json),
        json: answer.value.blueprint_json,
        confidence: answer.value.confidence ?? null,
      };
    } catch (error) {
      options.log?.warn({ reason: (error as Error).message }, 'hosted service generated an invalid blueprint');
      return { gap: 'invalid_blueprint' };
    }
  }

  async function fromModel(goal: string, gap: string): Promise<Written> {
    if (!options.model) {
      throw new UnavailableError(
        `No blueprint could be synthesized: the hosted service gave none (${gap}), no local blueprint fits the goal and autopilot.model is not configured`,
        'synthesis_unavailable',
      );
    }
    let feedback = '';
    // Two attempts: the second one is told what was wrong with the first.
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      const result = await options.model.client.generate({
        model: options.model.ref,
        temperature: 0.2,
        messages: [
          { role: 'system', content: blueprintWriterPrompt(options.availableTools()) },
          { role: 'user', content: `Goal: ${goal}${feedback}` },
        ],
      });
      const object = extractJsonObject(result.text);
      try {
        const json = JSON.stringify(object ?? null);
        return { blueprint: options.parseBlueprint(json), json, confidence: null };
      } catch (error) {
        feedback = `\n\nYour previous answer was rejected: ${(error as Error).message}. Answer with a corrected blueprint.`;
      }
    }
    throw new UpstreamError({
      message: `autopilot.model (${options.model.ref}) did not produce a valid blueprint`,
      code: 'synthesis_failed',
      retryable: true,
    });
  }

  return async (projectId, goal, trace) => {
    const tier = await assertEnabled(options.instances);
    const hosted = await fromService(goal, projectId, tier);
    const local = 'blueprint' in hosted ? undefined : fromLocal(goal);
    const written: Written & { source: SynthesisResult['source'] } =
      'blueprint' in hosted
        ? { ...hosted, source: 'service' }
        : local
          ? { ...local, source: 'local' }
          : { ...(await fromModel(goal, hosted.gap)), source: 'model' };
    const slots = await resolveGoalSlots(written.blueprint, goal, options.slotExtractor);
    const mission = await options.missions.createDraft(
      projectId,
      {
        blueprint: written.blueprint,
        blueprintJson: written.json,
        slots,
        goal,
      },
      trace,
    );
    return { mission, source: written.source, confidence: written.confidence };
  };
}
