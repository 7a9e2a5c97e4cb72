import type { Blueprint } from '../blueprints/blueprint.schema.js';
import { extractKeyValues } from './extract-key-values.js';
import type { SlotExtractor } from './model-slot-extractor.js';
import { resolveSlots, type ResolvedSlots } from './resolve-slots.js';
import { scheduleFromPhrase } from './schedule-from-phrase.js';

/**
 * Slot values for a goal: `key=value` pairs first, then a schedule phrase ("every Monday at 9") for cron
 * slots, then (when autopilot.model is configured and slots remain unset) the model's reading of the
 * natural language, then the blueprint's defaults.
 */
export async function resolveGoalSlots(
  blueprint: Blueprint,
  goal: string,
  extractor?: SlotExtractor,
  explicit?: Record<string, unknown>,
): Promise<ResolvedSlots> {
  const extracted = extractKeyValues(goal);
  const schedule = scheduleFromPhrase(goal);
  const cronSlot = blueprint.slots.find((slot) => slot.type === 'cron');
  if (schedule && cronSlot && extracted[cronSlot.name] === undefined) extracted[cronSlot.name] = schedule;
  const first = resolveSlots(blueprint.slots, { explicit, extracted });
  const unset = blueprint.slots.filter(
    (slot) => first.origin[slot.name] === undefined || first.origin[slot.name] === 'default',
  );
  if (!extractor || unset.length === 0 || first.errors.length > 0) return first;
  const inferred = await extractor(goal, unset);
  return resolveSlots(blueprint.slots, { explicit, extracted, inferred });
}
