import type { Blueprint } from './blueprint.schema.js';

/** A blueprint as the blueprint routes list and show it. */
export function mapBlueprintSummary(blueprint: Blueprint, source: 'bundled' | 'local' | 'request') {
  const nodes = blueprint.order.map((id) => blueprint.agent_graph.nodes.find((node) => node.id === id)!);
  return {
    id: blueprint.id,
    version: blueprint.version,
    title: blueprint.title,
    description: blueprint.description,
    category: blueprint.category,
    mode: blueprint.mode,
    source,
    example_goals: blueprint.example_goals,
    slots: blueprint.slots.map((slot) => ({
      name: slot.name,
      type: slot.type,
      required: slot.required,
      description: slot.description ?? null,
      default: slot.default,
      validator: slot.validator ?? null,
    })),
    nodes: nodes.map((node) => ({ id: node.id, kind: node.kind, role: node.role, tools: node.tools })),
  };
}

export function mapBlueprintDetail(blueprint: Blueprint, source: 'bundled' | 'local' | 'request', json: string) {
  return {
    ...mapBlueprintSummary(blueprint, source),
    blueprint: JSON.parse(json) as Record<string, unknown>,
    unknown_fields: blueprint.unknown_fields,
    notes: blueprint.notes,
  };
}
