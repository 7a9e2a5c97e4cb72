import type { HallucinationConfig } from '../config/index.js';
import { computeGroundingScore } from './grounding-score.js';
import type { Guardrail } from './types.js';

/** Flags an answer whose grounding score against the run's sources is below the threshold. */
export function createHallucinationGuardrail(config: HallucinationConfig): Guardrail {
  return {
    type: 'hallucination',
    check(text, { stage, sources }) {
      // Without sources there is nothing to ground against, and a low score would only be noise.
      if (stage !== 'output' || !sources.some((source) => source.trim() !== '')) return [];
      const score = computeGroundingScore(text, sources);
      return score < config.threshold
        ? [{ type: 'hallucination', entity: 'ungrounded_answer', action: config.action, score }]
        : [];
    },
  };
}
