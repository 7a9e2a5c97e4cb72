type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A scalar as its text; an object or array as JSON rather than `[object Object]`. */
const toText = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

/**
 * The graph in our shape from `agent_graph` or the catalogue's newer `composition` (a graph, a list of
 * steps or `{steps | sequence}`: steps run one after the other). Nodes get their prompt from `prompt`,
 * else from the blueprint's `prompts[prompt_ref]`; edges may be pairs or `{from, to}` objects; a missing
 * entry is the first node nothing leads into. Returns no graph when there is none (or both are given):
 * validation reports that.
 */
export function normalizeCatalogueGraph(raw: Json, notes: string[]): { agent_graph?: unknown } {
  if (raw.agent_graph !== undefined && raw.composition !== undefined) return {};
  const source = raw.agent_graph ?? compositionGraph(raw.composition);
  if (!isObject(source)) return {};
  const prompts = isObject(raw.prompts) ? raw.prompts : {};
  const nodes = Array.isArray(source.nodes)
    ? source.nodes.map((node, index) => normalizeNode(node, index, prompts, notes))
    : source.nodes;
  const graph: Json = { ...source, nodes };
  if (Array.isArray(source.edges)) graph.edges = source.edges.map(normalizeEdge);
  else if (source.sequential === true && Array.isArray(nodes)) graph.edges = chain(nodes);
  if (isObject(source.branches)) {
    graph.branches = Object.fromEntries(
      Object.entries(source.branches).map(([node, list]) => [
        node,
        Array.isArray(list) ? list.map(normalizeBranch) : list,
      ]),
    );
  }
  if (graph.entry === undefined && Array.isArray(nodes))
    graph.entry = firstNode(nodes, (graph.edges as unknown[] | undefined) ?? []);
  return { agent_graph: graph };
}

function compositionGraph(composition: unknown): unknown {
  const steps = Array.isArray(composition)
    ? composition
    : isObject(composition)
      ? (composition.steps ?? composition.sequence)
      : undefined;
  if (Array.isArray(steps)) return { nodes: steps, sequential: true };
  if (isObject(composition) && Array.isArray(composition.nodes))
    return Array.isArray(composition.edges) ? composition : { ...composition, sequential: true };
  return composition;
}

function normalizeNode(node: unknown, index: number, prompts: Json, notes: string[]): unknown {
  if (!isObject(node)) return node;
  const next: Json = { ...node };
  next.id ??= node.name ?? `node_${index + 1}`;
  if (next.prompt === undefined && typeof node.prompt_ref === 'string') {
    const text = prompts[node.prompt_ref];
    if (typeof text === 'string') next.prompt = text;
    else if (isObject(text) && typeof text.template === 'string') next.prompt = text.template;
    else notes.push(`agent_graph.nodes[${index}].prompt_ref: "${node.prompt_ref}" is not in the blueprint's prompts`);
  }
  if (Array.isArray(node.tools))
    next.tools = node.tools.map((tool: unknown) =>
      isObject(tool) && typeof tool.name === 'string' ? tool.name : tool,
    );
  if (next.model === undefined && typeof node.model_ref === 'string') next.model_ref = node.model_ref;
  if (typeof node.role !== 'string' && node.role !== undefined) next.role = toText(node.role);
  return next;
}

function normalizeEdge(edge: unknown): unknown {
  if (isObject(edge)) return [edge.from ?? edge.source, edge.to ?? edge.target];
  return edge;
}

function normalizeBranch(branch: unknown): unknown {
  if (!isObject(branch)) return branch;
  return {
    ...branch,
    target: branch.target ?? branch.to,
    condition:
      typeof branch.condition === 'string'
        ? branch.condition
        : branch.condition === undefined
          ? ''
          : JSON.stringify(branch.condition),
  };
}

function chain(nodes: unknown[]): [unknown, unknown][] {
  const ids = nodes.map((node) => (isObject(node) ? node.id : undefined));
  return ids.slice(1).map((id, index) => [ids[index], id]);
}

function firstNode(nodes: unknown[], edges: unknown[]): unknown {
  const targets = new Set(edges.flatMap((edge) => (Array.isArray(edge) ? [edge[1] as unknown] : [])));
  const ids = nodes.map((node) => (isObject(node) ? node.id : undefined));
  return ids.find((id) => !targets.has(id)) ?? ids[0];
}
