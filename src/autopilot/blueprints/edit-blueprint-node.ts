type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Edits one node of a blueprint as written (either vocabulary: agent_graph.nodes, composition as a list,
 * steps, sequence or nodes), so the mission keeps the blueprint in the form it came in. Returns the new
 * JSON text, or undefined when no node has that id.
 */
export function editBlueprintNode(json: string, nodeId: string, edit: (node: Json) => Json): string | undefined {
  const blueprint = JSON.parse(json) as Json;
  const lists: unknown[] = [];
  if (isObject(blueprint.agent_graph)) lists.push(blueprint.agent_graph.nodes);
  const composition = blueprint.composition;
  if (Array.isArray(composition)) lists.push(composition);
  else if (isObject(composition)) lists.push(composition.steps, composition.sequence, composition.nodes);
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    const index = list.findIndex((node) => isObject(node) && (node.id ?? node.name) === nodeId);
    if (index === -1) continue;
    list[index] = edit(list[index] as Json);
    return JSON.stringify(blueprint);
  }
  return undefined;
}
