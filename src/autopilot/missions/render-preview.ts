import type { Blueprint } from '../blueprints/blueprint.schema.js';

/** The multi-line plain-text preview of a mission: title, category, mode, description, slots, tools required. */
export function renderPreview(blueprint: Blueprint, slots: Record<string, unknown>, missing: string[] = []): string {
  const lines = [
    `Title: ${blueprint.title}`,
    `Category: ${blueprint.category}`,
    `Mode: ${blueprint.mode}`,
    `Description: ${blueprint.description || '-'}`,
    'Slots:',
  ];
  const names = [...new Set([...blueprint.slots.map((slot) => slot.name), ...Object.keys(slots)])];
  if (names.length === 0) lines.push('  (none)');
  for (const name of names) {
    const spec = blueprint.slots.find((slot) => slot.name === name);
    const value =
      name in slots
        ? formatSlot(slots[name])
        : missing.includes(name)
          ? '(missing, required: approval is refused until it is set)'
          : '(not set: prompts get an empty value)';
    lines.push(`  ${name}${spec ? ` [${spec.type}]` : ''}: ${value}`);
  }
  const tools = [
    ...new Set([...blueprint.tools_required, ...blueprint.agent_graph.nodes.flatMap((node) => node.tools)]),
  ];
  lines.push(`Tools required: ${tools.length > 0 ? tools.join(', ') : 'none'}`);
  return lines.join('\n');
}

function formatSlot(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(', ');
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}
