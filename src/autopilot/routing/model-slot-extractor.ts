import type { ModelClient } from '../../llm/index.js';
import type { Clock } from '../autopilot.types.js';
import type { SlotSpec } from '../blueprints/blueprint.schema.js';
import { extractJsonObject } from './extract-json-object.js';
import type { Logger } from '../../logger.js';

/** Reads slot values from natural language with the autopilot model; the caller validates what comes back. */
export type SlotExtractor = (goal: string, slots: SlotSpec[]) => Promise<Record<string, unknown>>;

const TYPE_HINTS: Record<SlotSpec['type'], string> = {
  str: 'a string',
  int: 'an integer',
  float: 'a number',
  bool: 'true or false',
  'list[str]': 'a JSON array of strings',
  cron: 'a 5-field cron expression in UTC (minute hour day-of-month month day-of-week), e.g. "every Monday at 9" is "0 9 * * 1"',
  url: 'an absolute http(s) URL',
};

export function createModelSlotExtractor(options: {
  models: ModelClient;
  model: string;
  clock: Clock;
  log?: Pick<Logger, 'warn'>;
}): SlotExtractor {
  return async (goal, slots) => {
    if (slots.length === 0) return {};
    const wanted = slots
      .map((slot) => `- ${slot.name}: ${TYPE_HINTS[slot.type]}${slot.description ? ` (${slot.description})` : ''}`)
      .join('\n');
    try {
      const result = await options.models.generate({
        model: options.model,
        temperature: 0,
        messages: [
          {
            role: 'system',
            content:
              "You extract parameter values from a user's goal. Answer with one JSON object and nothing else. Leave out every parameter the goal does not state or clearly imply.",
          },
          {
            role: 'user',
            content: `Today is ${options.clock().toISOString().slice(0, 10)}.\nParameters:\n${wanted}\n\nGoal: ${goal}`,
          },
        ],
      });
      return extractJsonObject(result.text) ?? {};
    } catch (error) {
      // Extraction is a convenience: without it, key=value pairs and defaults still fill the slots.
      options.log?.warn({ err: error }, 'autopilot model could not extract slots');
      return {};
    }
  };
}
