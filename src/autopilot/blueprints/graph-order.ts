export interface GraphShape {
  entry: string;
  nodes: { id: string }[];
  edges: [string, string][];
  branches?: Record<string, { target: string }[]>;
}

/** Plain edges plus one edge per branch (a branch is an edge taken only when its condition holds). */
export function allEdges(graph: GraphShape): [string, string][] {
  const branchEdges = Object.entries(graph.branches ?? {}).flatMap(([from, list]) =>
    list.map((branch): [string, string] => [from, branch.target]),
  );
  return [...graph.edges, ...branchEdges];
}

/**
 * The order nodes run in: a topological order that starts at the entry and otherwise keeps the order
 * nodes are declared in. Returns the ids left over when the graph has a cycle.
 */
export function orderGraph(graph: GraphShape): { order: string[]; cyclic: string[] } {
  const edges = allEdges(graph);
  const incoming = new Map(graph.nodes.map((node) => [node.id, 0]));
  for (const [, to] of edges) incoming.set(to, (incoming.get(to) ?? 0) + 1);
  const declared = graph.nodes.map((node) => node.id);
  const ready = declared
    .filter((id) => incoming.get(id) === 0)
    .sort((a, b) => Number(b === graph.entry) - Number(a === graph.entry));
  const order: string[] = [];
  while (ready.length > 0) {
    const id = ready.shift()!;
    order.push(id);
    for (const [from, to] of edges) {
      if (from !== id) continue;
      const left = (incoming.get(to) ?? 0) - 1;
      incoming.set(to, left);
      if (left === 0) insertByDeclaration(ready, to, declared);
    }
  }
  return { order, cyclic: declared.filter((id) => !order.includes(id)) };
}

function insertByDeclaration(ready: string[], id: string, declared: string[]): void {
  const rank = declared.indexOf(id);
  const at = ready.findIndex((other) => declared.indexOf(other) > rank);
  if (at === -1) ready.push(id);
  else ready.splice(at, 0, id);
}

/** Ids reachable from the entry along edges. */
export function reachableFrom(graph: GraphShape): Set<string> {
  const edges = allEdges(graph);
  const seen = new Set<string>([graph.entry]);
  const queue = [graph.entry];
  while (queue.length > 0) {
    const id = queue.shift()!;
    for (const [from, to] of edges) {
      if (from === id && !seen.has(to)) {
        seen.add(to);
        queue.push(to);
      }
    }
  }
  return seen;
}
