import type { z } from 'zod';
import { ValidationError } from '../../errors.js';
import { blueprintSchema, type Blueprint, type BlueprintInput, type SlotSpec } from './blueprint.schema.js';
import { allEdges, orderGraph, reachableFrom } from './graph-order.js';
import { normalizeBlueprintInput } from './normalize-blueprint.js';
import { normalizeSlots } from '../routing/normalize-slots.js';
import { listPlaceholders, stepOutputPlaceholder } from '../execution/render-template.js';
import { coerceSlotValue } from '../routing/slot-types.js';

/** What a blueprint's tools and models are checked against. */
export interface BlueprintCheckOptions {
  toolExists: (name: string) => boolean;
  modelExists: (model: string) => boolean;
  /** `autopilot.model`: the model of nodes that name none. */
  defaultModel?: string;
}

export interface BlueprintProblem {
  field: string;
  message: string;
}

/** Parses `blueprint_json` text and validates it; throws 400 invalid_blueprint naming each bad field. */
export function parseBlueprintJson(text: string, options: BlueprintCheckOptions, field = 'blueprint_json'): Blueprint {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw invalidBlueprint([{ field, message: `not valid JSON (${(error as Error).message})` }]);
  }
  return validateBlueprint(parsed, options, field);
}

/**
 * Validates a blueprint object in our vocabulary or the hosted catalogue's (normalize-blueprint.ts):
 * shape, unique node ids, known edge ends, no cycle, prompts, tools and models that exist. Strict only
 * where execution needs it; unknown fields are kept and listed in `unknown_fields`.
 */
export function validateBlueprint(input: unknown, options: BlueprintCheckOptions, field = 'blueprint'): Blueprint {
  const graphProblem = checkGraphPresence(input);
  if (graphProblem) throw invalidBlueprint([{ ...graphProblem, field: `${field}.${graphProblem.field}` }]);
  const normalized = normalizeBlueprintInput(input);
  const parsed = blueprintSchema.safeParse(normalized.value);
  if (!parsed.success)
    throw invalidBlueprint(
      flattenIssues(parsed.error.issues).map((issue) => ({
        field: formatPath([field, ...issue.path]),
        message: issue.message,
      })),
    );
  const notes = [...normalized.notes];
  const blueprint = {
    ...parsed.data,
    agent_graph: {
      ...parsed.data.agent_graph,
      nodes: parsed.data.agent_graph.nodes.map((node, index) => resolveModelRef(node, index, options, notes)),
    },
  };
  const slots = [...normalizeSlots(blueprint.required_slots, true), ...normalizeSlots(blueprint.optional_slots, false)];
  const problems = [
    ...checkSlots(slots),
    ...checkGraph(blueprint),
    ...checkPrompts(blueprint),
    ...checkTools(blueprint, options),
    ...checkModels(blueprint, options),
  ];
  const { order } = orderGraph(blueprint.agent_graph);
  if (problems.length === 0) problems.push(...checkPlaceholders(blueprint, slots, order));
  if (problems.length > 0)
    throw invalidBlueprint(problems.map((problem) => ({ ...problem, field: `${field}.${problem.field}` })));
  const { required_slots: _required, optional_slots: _optional, ...rest } = blueprint;
  const mode = blueprint.mode ?? (slots.some((slot) => slot.type === 'cron') ? 'recurring' : 'one_off');
  return { ...rest, mode, slots, order, unknown_fields: normalized.unknownFields, notes };
}

function checkGraphPresence(input: unknown): BlueprintProblem | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  const record = input as Record<string, unknown>;
  if (record.agent_graph !== undefined && record.composition !== undefined)
    return { field: 'composition', message: 'give exactly one of agent_graph or composition' };
  if (record.agent_graph === undefined && record.composition === undefined)
    return { field: 'agent_graph', message: 'no graph: a blueprint needs agent_graph (or composition)' };
  return undefined;
}

// A catalogue's model preference is honoured when this installation has that model; otherwise the default serves.
function resolveModelRef<T extends { model?: string; model_ref?: string }>(
  node: T,
  index: number,
  options: BlueprintCheckOptions,
  notes: string[],
): T {
  if (node.model || !node.model_ref) return node;
  if (/^[^/]+\/.+$/.test(node.model_ref) && options.modelExists(node.model_ref))
    return { ...node, model: node.model_ref };
  notes.push(
    `agent_graph.nodes[${index}].model_ref: "${node.model_ref}" is not configured here; the default model serves`,
  );
  return node;
}

function checkPrompts(blueprint: BlueprintInput): BlueprintProblem[] {
  return blueprint.agent_graph.nodes.flatMap((node, index): BlueprintProblem[] =>
    node.kind === 'llm' && !node.prompt?.trim()
      ? [
          {
            field: `agent_graph.nodes[${index}].prompt`,
            message: "a node of kind llm needs a prompt (or a prompt_ref naming one of the blueprint's prompts)",
          },
        ]
      : [],
  );
}

export function invalidBlueprint(problems: BlueprintProblem[]): ValidationError {
  const message = `invalid blueprint: ${problems.map((problem) => `${problem.field}: ${problem.message}`).join('; ')}`;
  return new ValidationError(message, 'invalid_blueprint', { param: problems[0]?.field, errors: problems });
}

/** A failed union (the two slot shapes) is reported by the branch whose shape the input has, at the nested field. */
function flattenIssues(issues: readonly z.core.$ZodIssue[], prefix: PropertyKey[] = []): z.core.$ZodIssue[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [{ ...issue, path }];
    const shaped =
      issue.errors.find(
        (branch) => !branch.some((inner) => inner.code === 'invalid_type' && inner.path.length === 0),
      ) ?? issue.errors[0];
    return flattenIssues(shaped, path);
  });
}

function formatPath(path: PropertyKey[]): string {
  return path.reduce<string>(
    (text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)),
    '',
  );
}

function checkSlots(slots: SlotSpec[]): BlueprintProblem[] {
  const problems: BlueprintProblem[] = [];
  const seen = new Set<string>();
  for (const slot of slots) {
    const where = slot.required ? 'required_slots' : 'optional_slots';
    if (seen.has(slot.name))
      problems.push({ field: `${where}.${slot.name}`, message: `slot "${slot.name}" is declared twice` });
    seen.add(slot.name);
    if (slot.default === undefined) continue;
    const checked = coerceSlotValue(slot.type, slot.default);
    if (!checked.ok) problems.push({ field: `${where}.${slot.name}.default`, message: checked.message });
  }
  return problems;
}

function checkGraph(blueprint: BlueprintInput): BlueprintProblem[] {
  const graph = blueprint.agent_graph;
  const problems: BlueprintProblem[] = [];
  const ids = new Set<string>();
  graph.nodes.forEach((node, index) => {
    if (ids.has(node.id))
      problems.push({ field: `agent_graph.nodes[${index}].id`, message: `duplicate node id "${node.id}"` });
    ids.add(node.id);
  });
  if (!ids.has(graph.entry)) problems.push({ field: 'agent_graph.entry', message: `unknown node "${graph.entry}"` });
  graph.edges.forEach(([from, to], index) => {
    if (!ids.has(from)) problems.push({ field: `agent_graph.edges[${index}][0]`, message: `unknown node "${from}"` });
    if (!ids.has(to)) problems.push({ field: `agent_graph.edges[${index}][1]`, message: `unknown node "${to}"` });
    if (to === graph.entry)
      problems.push({
        field: `agent_graph.edges[${index}][1]`,
        message: `edges cannot lead into the entry node "${to}"`,
      });
  });
  for (const [from, list] of Object.entries(graph.branches)) {
    if (!ids.has(from)) problems.push({ field: `agent_graph.branches.${from}`, message: `unknown node "${from}"` });
    list.forEach((branch, index) => {
      if (!ids.has(branch.target))
        problems.push({
          field: `agent_graph.branches.${from}[${index}].target`,
          message: `unknown node "${branch.target}"`,
        });
      if (branch.target === graph.entry)
        problems.push({
          field: `agent_graph.branches.${from}[${index}].target`,
          message: `branches cannot lead into the entry node "${branch.target}"`,
        });
    });
  }
  if (problems.length > 0) return problems;
  const { cyclic } = orderGraph(graph);
  if (cyclic.length > 0)
    return [
      {
        field:
          Object.keys(graph.branches).length > 0 && allEdges(graph).length > graph.edges.length
            ? 'agent_graph.edges/branches'
            : 'agent_graph.edges',
        message: `the graph has a cycle through ${cyclic.map((id) => `"${id}"`).join(', ')}`,
      },
    ];
  const reachable = reachableFrom(graph);
  graph.nodes.forEach((node, index) => {
    if (!reachable.has(node.id))
      problems.push({
        field: `agent_graph.nodes[${index}]`,
        message: `node "${node.id}" is not reachable from the entry "${graph.entry}"`,
      });
  });
  return problems;
}

function checkTools(blueprint: BlueprintInput, options: BlueprintCheckOptions): BlueprintProblem[] {
  const problems: BlueprintProblem[] = [];
  blueprint.tools_required.forEach((tool, index) => {
    if (!options.toolExists(tool))
      problems.push({ field: `tools_required[${index}]`, message: `unknown tool "${tool}"` });
  });
  blueprint.agent_graph.nodes.forEach((node, nodeIndex) =>
    node.tools.forEach((tool, index) => {
      if (!options.toolExists(tool))
        problems.push({ field: `agent_graph.nodes[${nodeIndex}].tools[${index}]`, message: `unknown tool "${tool}"` });
    }),
  );
  return problems;
}

function checkModels(blueprint: BlueprintInput, options: BlueprintCheckOptions): BlueprintProblem[] {
  return blueprint.agent_graph.nodes.flatMap((node, index): BlueprintProblem[] => {
    // A deterministic node calls no model.
    if (node.kind === 'deterministic') return [];
    const field = `agent_graph.nodes[${index}].model`;
    const model = node.model ?? options.defaultModel;
    if (!model) return [{ field, message: "no model: set the node's model or configure autopilot.model" }];
    return options.modelExists(model)
      ? []
      : [{ field, message: `model "${model}" names a provider that is not configured` }];
  });
}

function checkPlaceholders(blueprint: BlueprintInput, slots: SlotSpec[], order: string[]): BlueprintProblem[] {
  const known = new Set(['goal', 'budget_usd', ...slots.map((slot) => slot.name)]);
  const problems: BlueprintProblem[] = [];
  for (const id of order) {
    const index = blueprint.agent_graph.nodes.findIndex((node) => node.id === id);
    for (const name of listPlaceholders(blueprint.agent_graph.nodes[index].prompt ?? '')) {
      if (known.has(name)) continue;
      const earlier = order.slice(0, order.indexOf(id)).some((other) => stepOutputPlaceholder(other) === name);
      if (!earlier)
        problems.push({
          field: `agent_graph.nodes[${index}].prompt`,
          message: `unknown placeholder {{${name}}} (slots, goal or the output of an earlier node)`,
        });
    }
  }
  return problems;
}
