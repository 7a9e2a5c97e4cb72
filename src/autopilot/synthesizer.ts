import { UnavailableError, UpstreamError } from '../errors.js';
import type { ModelClient } from '../llm/index.js';
import type { AutopilotInstanceStore } from './autopilot-instance.store.js';
import type { AutopilotTier } from './autopilot.types.js';
import { blueprintWriterPrompt } from './blueprint-writer-prompt.js';
import type { Blueprint } from './blueprint.schema.js';
import { extractJsonObject } from './extract-json-object.js';
import { assertEnabled } from './goal-router.js';
import type { HostedBlueprints } from './hosted-blueprints.js';
import type { MissionService } from './mission.service.js';
import type { MissionRecord } from './mission.types.js';
import type { SlotExtractor } from './model-slot-extractor.js';
import { resolveGoalSlots } from './resolve-goal-slots.js';

export interface SynthesisResult {
  mission: MissionRecord;
  source: 'service' | 'model';
  confidence: number | null;
}

export interface SynthesizerOptions {
  instances: AutopilotInstanceStore;
  hosted: HostedBlueprints;
  missions: MissionService;
  parseBlueprint(text: string): Blueprint;
  /** `autopilot.model` and the client that reaches it; without them only the hosted service can synthesize. */
  model?: { client: ModelClient; ref: string };
  availableTools(): string[];
  slotExtractor?: SlotExtractor;
  log?: { warn(details: object, message: string): void };
}

export type Synthesizer = (projectId: string, goal: string) => Promise<SynthesisResult>;

interface Written {
  blueprint: Blueprint;
  json: string;
  confidence: number | null;
}

/** Writes a blueprint for a goal: the hosted `generate` first (tiers anonymous/free), else the autopilot model. */
export function createSynthesizer(options: SynthesizerOptions): Synthesizer {
  async function fromService(goal: string, projectId: string, tier: AutopilotTier): Promise<Written | { gap: string }> {
    const answer = await options.hosted.generate(goal, { project_id: projectId, available_tools: options.availableTools() }, tier);
    if (!answer.ok) return { gap: answer.reason };
    try {
      return { blueprint: options.parseBlueprint(answer.value.blueprint_json), json: answer.value.blueprint_json, confidence: answer.value.confidence ?? null };
    } catch (error) {
      options.log?.warn({ reason: (error as Error).message }, 'hosted service generated an invalid blueprint');
      return { gap: 'invalid_blueprint' };
    }
  }

  async function fromModel(goal: string, gap: string): Promise<Written> {
    if (!options.model) {
      throw new UnavailableError(`No blueprint could be synthesized: the hosted service gave none (${gap}) and autopilot.model is not configured`, 'synthesis_unavailable');
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
    throw new UpstreamError({ message: `autopilot.model (${options.model.ref}) did not produce a valid blueprint`, code: 'synthesis_failed', retryable: true });
  }

  return async (projectId, goal) => {
    const tier = await assertEnabled(options.instances);
    const hosted = await fromService(goal, projectId, tier);
    const written = 'blueprint' in hosted ? { ...hosted, source: 'service' as const } : { ...(await fromModel(goal, hosted.gap)), source: 'model' as const };
    const slots = await resolveGoalSlots(written.blueprint, goal, options.slotExtractor);
    const mission = await options.missions.createDraft(projectId, { blueprint: written.blueprint, blueprintJson: written.json, slots, goal });
    return { mission, source: written.source, confidence: written.confidence };
  };
}
