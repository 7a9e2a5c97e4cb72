import { z } from 'zod';

/** Slot types a blueprint may declare; values are checked against them (slot-types.ts). */
export const SLOT_TYPES = ['str', 'int', 'float', 'bool', 'list[str]', 'cron', 'url'] as const;
export type SlotType = (typeof SLOT_TYPES)[number];

const slotType = z.enum(SLOT_TYPES, {
  error: (issue) => `unknown slot type ${JSON.stringify(issue.input)} (one of ${SLOT_TYPES.join(', ')})`,
});
const slotDetails = {
  type: slotType.default('str'),
  description: z.string().optional(),
  default: z.unknown().optional(),
  /** An explicit flag wins over the list the slot is declared in (the hosted catalogue marks each slot). */
  required: z.boolean().optional(),
  /** A named validator (the catalogue's `validator_name`); kept and shown, only `cron` and `url` are applied (as types). */
  validator: z.string().optional(),
};

const slotName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'slot names are letters, digits and _');
// The hosted service's slot format is not shown, so both shapes are read: a list of named specs or a map of name to type/spec.
const slotList = z.array(z.looseObject({ name: slotName, ...slotDetails }));
const slotMap = z.record(slotName, z.union([slotType, z.looseObject(slotDetails)]));
const slots = z.union([slotList, slotMap]).default([]);

/** Training sample formats the curator writes (sample-format.ts). */
export const SAMPLE_FORMATS = ['openai', 'alpaca', 'sharegpt'] as const;
export type SampleFormat = (typeof SAMPLE_FORMATS)[number];

const datasetName = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/,
    'dataset names are 1-100 letters, digits, ., _ or - (not starting with . _ or -)',
  );
const trainingDataHook = z.looseObject({
  format: z.enum(SAMPLE_FORMATS).default('openai'),
  dataset: datasetName.optional(),
  event: z.string().optional(),
});

// `promotion_criteria`: the candidate answers held-out prompts before it takes over (promotion-evaluation.ts).
const learningLoopTarget = z.looseObject({
  trigger_after_labeled_samples: z.number().int().min(1).optional(),
  base_model: z.string().optional(),
  promotion_criteria: z
    .looseObject({
      held_out_samples: z.number().int().min(1).max(100).default(3),
      min_overlap: z.number().min(0).max(1).default(0),
    })
    .optional(),
});

/** Comparison operators of a success metric (the catalogue's vocabulary). */
export const METRIC_OPS = ['>=', '<=', '==', '>', '<'] as const;
const metric = z.looseObject({
  name: z.string().min(1),
  op: z.enum(METRIC_OPS).default('>='),
  value: z.union([z.number(), z.string(), z.boolean()]),
});

/** Success criteria in one shape: plain-language lines and/or measurable metrics on a dataset. */
const successCriteria = z.looseObject({
  text: z.array(z.string()).default([]),
  dataset_id: z.string().optional(),
  metrics: z.array(metric).default([]),
});

/** Node kinds: `llm` calls a model; `deterministic` renders its template (or passes its inputs on) without one. */
export const NODE_KINDS = ['llm', 'deterministic'] as const;

const nodeShape = {
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'node ids are 1-64 letters, digits, _ or -'),
  kind: z
    .enum(NODE_KINDS, {
      error: (issue) => `unknown node kind ${JSON.stringify(issue.input)} (one of ${NODE_KINDS.join(', ')})`,
    })
    .default('llm'),
  role: z.string().default(''),
  prompt: z.string().optional(),
  tools: z.array(z.string().min(1)).default([]),
  model: z
    .string()
    .regex(/^[^/]+\/.+$/, 'model is "<provider>/<model id>"')
    .optional(),
  /** The catalogue's model preference: used when it names a configured model, else the default model serves. */
  model_ref: z.string().optional(),
  /** Model calls (agent iterations) the node may make; unset: autopilot.node_max_iterations. */
  max_steps: z.number().int().min(1).max(100).optional(),
};
export const blueprintNodeSchema = z.looseObject(nodeShape);

const branch = z.looseObject({ condition: z.string().default(''), target: z.string().min(1) });
const edge = z.tuple([z.string(), z.string()]);

const graphShape = {
  entry: z.string().min(1),
  nodes: z.array(blueprintNodeSchema).min(1, 'a graph needs at least one node'),
  edges: z.array(edge).default([]),
  /** Conditional edges: after `node` runs, the first branch whose condition its output meets is taken. */
  branches: z.record(z.string(), z.array(branch)).default({}),
};

/** A blueprint (ours or the hosted catalogue's, after normalize-blueprint.ts); unknown extra fields are kept and ignored. */
const blueprintShape = {
  id: z.string().min(1).max(200),
  version: z.union([z.string(), z.number()]).transform(String).default('1'),
  title: z.string().min(1),
  description: z.string().default(''),
  category: z.string().default('general'),
  mode: z.string().optional(),
  required_slots: slots,
  optional_slots: slots,
  tools_required: z.array(z.string().min(1)).default([]),
  agent_graph: z.looseObject(graphShape),
  success_criteria: successCriteria.optional(),
  budget_usd: z.number().positive().optional(),
  /** A plain description (kept, unused) or the learning loop's settings for this blueprint. */
  learning_loop_target: z.union([z.string(), learningLoopTarget]).optional(),
  /** Where and how the curator writes this blueprint's samples; one hook or several. */
  training_data_hooks: z.union([trainingDataHook, z.array(trainingDataHook)]).optional(),
  /** Optional estimates the healing engine compares executions with. */
  estimated_cost_usd: z.number().min(0).optional(),
  estimated_duration_seconds: z.number().min(0).optional(),
  /** Goals this blueprint serves: local ranking and the picker use them. */
  example_goals: z.array(z.string()).default([]),
  quality_tier: z.string().optional(),
  providers_required: z.array(z.string()).default([]),
};
export const blueprintSchema = z.looseObject(blueprintShape);

// Typed from the declared fields only: the extra fields a loose object keeps are never read.
const declaredNode = z.object(nodeShape);
export const declaredBlueprint = z.object({
  ...blueprintShape,
  agent_graph: z.object({ ...graphShape, nodes: z.array(declaredNode) }),
});
export type BlueprintInput = z.infer<typeof declaredBlueprint>;
export type BlueprintNode = z.infer<typeof declaredNode>;
export type SuccessCriteria = z.infer<typeof successCriteria>;

export interface SlotSpec {
  name: string;
  type: SlotType;
  required: boolean;
  description?: string;
  default?: unknown;
  validator?: string;
}

/** A validated blueprint: slots normalised to one list, nodes in execution order. */
export interface Blueprint extends Omit<BlueprintInput, 'required_slots' | 'optional_slots' | 'mode'> {
  mode: string;
  slots: SlotSpec[];
  /** Node ids in the order they run. */
  order: string[];
  /** Top-level fields neither vocabulary knows: kept with the blueprint and shown in mission detail. */
  unknown_fields: string[];
  /** What normalisation changed or ignored (a model_ref that is not configured, an unknown slot type…). */
  notes: string[];
}
