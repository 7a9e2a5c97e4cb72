import type { BlueprintInput, SlotSpec } from '../blueprints/blueprint.schema.js';

type SlotDeclaration = BlueprintInput['required_slots'];

/** One list of slot specs from either declared shape (a list of named specs or a map of name to type or spec). */
export function normalizeSlots(declared: SlotDeclaration, required: boolean): SlotSpec[] {
  if (Array.isArray(declared)) {
    return declared.map((slot) => ({
      name: slot.name,
      type: slot.type,
      required: slot.required ?? required,
      description: slot.description,
      default: slot.default,
      validator: slot.validator,
    }));
  }
  return Object.entries(declared).map(([name, spec]) =>
    typeof spec === 'string'
      ? { name, type: spec, required }
      : {
          name,
          type: spec.type,
          required: spec.required ?? required,
          description: spec.description,
          default: spec.default,
          validator: spec.validator,
        },
  );
}
