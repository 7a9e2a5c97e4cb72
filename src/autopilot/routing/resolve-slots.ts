import type { SlotSpec } from '../blueprints/blueprint.schema.js';
import { coerceSlotValue } from './slot-types.js';

/** Every mission may carry a budget, declared by its blueprint or not. */
const BUDGET_SLOT: SlotSpec = { name: 'budget_usd', type: 'float', required: false };

export interface SlotSources {
  /** Values the client sent as JSON (`slots`): invalid or unknown ones are errors. */
  explicit?: Record<string, unknown>;
  /** `key=value` pairs from the goal text: invalid ones are errors, unknown keys are ignored. */
  extracted?: Record<string, string>;
  /** The autopilot model's reading of the goal: invalid values are dropped. */
  inferred?: Record<string, unknown>;
}

export interface ResolvedSlots {
  values: Record<string, unknown>;
  /** Where each value came from, for the preview. */
  origin: Record<string, 'explicit' | 'goal' | 'model' | 'default'>;
  /** Required slots that have no value yet. */
  missing: string[];
  errors: { field: string; message: string }[];
}

/** Fills a blueprint's slots: explicit JSON, then key=value from the goal, then the model, then defaults. */
export function resolveSlots(specs: SlotSpec[], sources: SlotSources): ResolvedSlots {
  const known = specs.some((spec) => spec.name === BUDGET_SLOT.name) ? specs : [...specs, BUDGET_SLOT];
  const resolved: ResolvedSlots = { values: {}, origin: {}, missing: [], errors: [] };
  for (const name of Object.keys(sources.explicit ?? {})) {
    if (!known.some((spec) => spec.name === name))
      resolved.errors.push({ field: `slots.${name}`, message: 'unknown slot' });
  }
  for (const spec of known) {
    const candidates: [unknown, ResolvedSlots['origin'][string], boolean][] = [
      [sources.explicit?.[spec.name], 'explicit', true],
      [sources.extracted?.[spec.name], 'goal', true],
      [sources.inferred?.[spec.name], 'model', false],
      [spec.default, 'default', true],
    ];
    for (const [raw, origin, strict] of candidates) {
      if (raw === undefined || raw === null) continue;
      const checked = coerceSlotValue(spec.type, raw);
      if (checked.ok) {
        resolved.values[spec.name] = checked.value;
        resolved.origin[spec.name] = origin;
        break;
      }
      if (strict) {
        resolved.errors.push({
          field: origin === 'default' ? `blueprint.slots.${spec.name}.default` : `slots.${spec.name}`,
          message: checked.message,
        });
        break;
      }
    }
    if (!(spec.name in resolved.values) && spec.required) resolved.missing.push(spec.name);
  }
  return resolved;
}
