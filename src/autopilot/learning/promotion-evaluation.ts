import type { ModelClient } from '../../llm/index.js';
import type { PromotionEvaluation } from './fine-tune.types.js';
import type { SampleTurns } from './sample-format.js';

/**
 * A deliberately simple gate before a fine-tuned model takes over: it answers each held-out prompt
 * (samples it was not trained on), every answer must be non-empty, and the mean word overlap with the
 * curated answers must reach `min_overlap`. A failed call counts as an empty answer.
 */
export async function evaluateCandidate(
  models: ModelClient,
  model: string,
  heldOut: SampleTurns[],
  criteria: PromotionEvaluation,
): Promise<PromotionEvaluation> {
  let emptyAnswers = 0;
  let overlapSum = 0;
  for (const sample of heldOut) {
    const messages = [
      { role: 'system' as const, content: sample.system },
      { role: 'user' as const, content: sample.user },
    ];
    const answer = await models.generate({ model, messages, temperature: 0 }).then(
      (result) => result.text,
      () => '',
    );
    if (!answer.trim()) emptyAnswers += 1;
    overlapSum += wordOverlap(sample.assistant, answer);
  }
  const overlap = heldOut.length === 0 ? 0 : Math.round((overlapSum / heldOut.length) * 1000) / 1000;
  const passed = heldOut.length > 0 && emptyAnswers === 0 && overlap >= criteria.min_overlap;
  return { ...criteria, passed, overlap, empty_answers: emptyAnswers };
}

/** The share of the reference's distinct words that the answer also contains. */
export function wordOverlap(reference: string, answer: string): number {
  const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const expected = words(reference);
  if (expected.size === 0) return 1;
  const got = words(answer);
  let shared = 0;
  for (const word of expected) if (got.has(word)) shared += 1;
  return shared / expected.size;
}
