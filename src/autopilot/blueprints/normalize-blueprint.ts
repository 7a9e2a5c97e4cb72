import { normalizeCatalogueGraph } from './normalize-catalogue-graph.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A scalar as its text; an object or array as JSON rather than `[object Object]`. */
const toText = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

/** Top-level fields of either vocabulary (ours and the hosted catalogue's); anything else is reported as unknown. */
export const KNOWN_BLUEPRINT_FIELDS = new Set([
  'id',
  'blueprint_id',
  'version',
  'title',
  'name',
  'description',
  'category',
  'mode',
  'slots',
  'required_slots',
  'optional_slots',
  'tools_required',
  'agent_graph',
  'composition',
  'prompts',
  'success_criteria',
  'budget_usd',
  'learning_loop_target',
  'training_data_hooks',
  'estimated_cost_usd',
  'estimated_duration_seconds',
  'example_goals',
  'quality_tier',
  'providers_required',
  'sandbox_requirements',
]);

// The catalogue's (and common) spellings of our slot types; an unknown type is read as text, which every prompt can take.
const SLOT_TYPE_ALIASES: Record<string, string> = {
  str: 'str',
  string: 'str',
  text: 'str',
  email: 'str',
  date: 'str',
  datetime: 'str',
  timezone: 'str',
  enum: 'str',
  int: 'int',
  integer: 'int',
  float: 'float',
  number: 'float',
  decimal: 'float',
  bool: 'bool',
  boolean: 'bool',
  'list[str]': 'list[str]',
  'list[string]': 'list[str]',
  list: 'list[str]',
  array: 'list[str]',
  'string[]': 'list[str]',
  'array<string>': 'list[str]',
  cron: 'cron',
  schedule: 'cron',
  cron_expression: 'cron',
  url: 'url',
  uri: 'url',
  http_url: 'url',
};

const FORMAT_ALIASES: Record<string, string> = {
  openai: 'openai',
  chat: 'openai',
  openai_chat: 'openai',
  messages: 'openai',
  jsonl: 'openai',
  alpaca: 'alpaca',
  instruction: 'alpaca',
  sharegpt: 'sharegpt',
  conversations: 'sharegpt',
};

/**
 * Maps the hosted catalogue's blueprint vocabulary onto ours before validation: `type_`/`validator_name`
 * slot specs, `{dataset_id, metrics}` success criteria, `composition`, `prompt_ref`, `{name, target}`
 * metrics, hook formats and dataset names. Liberal on purpose: only what execution needs is checked later.
 */
export function normalizeBlueprintInput(raw: unknown): { value: unknown; notes: string[]; unknownFields: string[] } {
  if (!isObject(raw)) return { value: raw, notes: [], unknownFields: [] };
  const notes: string[] = [];
  const blueprint: Json = { ...raw };
  blueprint.id ??= raw.blueprint_id ?? raw.name;
  blueprint.title ??= raw.name ?? blueprint.id;
  if (typeof blueprint.id === 'number') blueprint.id = String(blueprint.id);
  if (raw.slots !== undefined) {
    blueprint.optional_slots = mergeSlots(raw.optional_slots, raw.slots);
    delete blueprint.slots;
  }
  for (const key of ['required_slots', 'optional_slots'] as const) {
    if (blueprint[key] !== undefined) blueprint[key] = normalizeSlotDeclaration(blueprint[key], notes, key);
  }
  Object.assign(blueprint, normalizeCatalogueGraph(raw, notes));
  if (raw.success_criteria !== undefined)
    blueprint.success_criteria = normalizeSuccessCriteria(raw.success_criteria, notes);
  if (raw.training_data_hooks !== undefined)
    blueprint.training_data_hooks = [raw.training_data_hooks]
      .flat()
      .map((hook, index) => normalizeHook(hook, index, notes));
  if (Array.isArray(raw.example_goals))
    blueprint.example_goals = raw.example_goals.filter((goal): goal is string => typeof goal === 'string');
  if (Array.isArray(raw.providers_required)) blueprint.providers_required = raw.providers_required.map(String);
  if (raw.quality_tier !== undefined && typeof raw.quality_tier !== 'string')
    blueprint.quality_tier = toText(raw.quality_tier);
  const unknownFields = Object.keys(raw).filter((key) => !KNOWN_BLUEPRINT_FIELDS.has(key));
  return { value: blueprint, notes, unknownFields };
}

function mergeSlots(optional: unknown, slots: unknown): unknown {
  const toList = (declared: unknown): unknown[] =>
    Array.isArray(declared)
      ? declared
      : isObject(declared)
        ? Object.entries(declared).map(([name, spec]) => (isObject(spec) ? { name, ...spec } : { name, type: spec }))
        : [];
  return [...toList(optional), ...toList(slots)];
}

function normalizeSlotDeclaration(declared: unknown, notes: string[], where: string): unknown {
  if (Array.isArray(declared))
    return declared.map((spec) =>
      isObject(spec) ? normalizeSlotSpec(spec, notes, `${where}.${toText(spec.name)}`) : (spec as unknown),
    );
  if (!isObject(declared)) return declared;
  return Object.fromEntries(
    Object.entries(declared).map(([name, spec]) => [
      name,
      isObject(spec)
        ? normalizeSlotSpec(spec, notes, `${where}.${name}`)
        : normalizeType(spec, notes, `${where}.${name}`),
    ]),
  );
}

function normalizeSlotSpec(spec: Json, notes: string[], where: string): Json {
  const { type_, validator_name, ...rest } = spec;
  const next: Json = { ...rest };
  const validator = spec.validator ?? validator_name;
  if (validator !== undefined) next.validator = toText(validator);
  // A cron or url validator on a string slot is our cron or url type: it checks the same thing.
  const type = validator === 'cron' || validator === 'url' ? validator : (spec.type ?? type_);
  if (type !== undefined) next.type = normalizeType(type, notes, where);
  if (typeof spec.required === 'string') next.required = spec.required === 'true';
  if (next.description !== undefined && typeof next.description !== 'string')
    next.description = toText(next.description);
  return next;
}

function normalizeType(type: unknown, notes: string[], where: string): unknown {
  if (typeof type !== 'string') return type;
  const known = SLOT_TYPE_ALIASES[type.trim().toLowerCase()] ?? SLOT_TYPE_ALIASES[type.trim()];
  if (known) return known;
  notes.push(`${where}: slot type "${type}" is read as str`);
  return 'str';
}

function normalizeSuccessCriteria(criteria: unknown, notes: string[]): Json {
  if (typeof criteria === 'string') return { text: [criteria], metrics: [] };
  if (Array.isArray(criteria))
    return { text: criteria.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))), metrics: [] };
  if (!isObject(criteria)) return { text: [String(criteria)], metrics: [] };
  const { metrics, description, text, ...rest } = criteria;
  const lines = [text, description].flat().filter((line): line is string => typeof line === 'string');
  const list = Array.isArray(metrics) ? metrics : [];
  const normalized = list.flatMap((metric, index) => {
    if (
      !isObject(metric) ||
      typeof metric.name !== 'string' ||
      (metric.value === undefined && metric.target === undefined)
    ) {
      notes.push(`success_criteria.metrics[${index}]: ignored (a metric is {name, op, value} or {name, target})`);
      return [];
    }
    const { target, ...kept } = metric;
    return [{ ...kept, op: metric.value === undefined ? '>=' : (metric.op ?? '>='), value: metric.value ?? target }];
  });
  return { ...rest, text: lines, metrics: normalized };
}

function normalizeHook(hook: unknown, index: number, notes: string[]): unknown {
  if (!isObject(hook)) return hook;
  const next: Json = { ...hook };
  if (typeof hook.format === 'string') {
    const format = FORMAT_ALIASES[hook.format.toLowerCase()];
    if (!format) notes.push(`training_data_hooks[${index}].format: "${hook.format}" is written as openai`);
    next.format = format ?? 'openai';
  }
  if (typeof hook.dataset === 'string') {
    // The dataset names a file under datasets/: a catalogue id such as "acme/news-v1" becomes "acme-news-v1".
    const safe = hook.dataset
      .replace(/[^A-Za-z0-9._-]/g, '-')
      .replace(/^[._-]+/, '')
      .slice(0, 100);
    if (safe !== hook.dataset)
      notes.push(`training_data_hooks[${index}].dataset: "${hook.dataset}" is stored as "${safe}"`);
    next.dataset = safe || undefined;
  }
  return next;
}
