import { z } from 'zod';

/** Slot types a blueprint may declare; values are checked against them (slot-types.ts). */
export const SLOT_TYPES = ['str', 'int', 'float', 'bool', 'list[str]', 'cron', 'url'] as const;
export type SlotType = (typeof SLOT_TYPES)[number];

const slotType = z.enum(SLOT_TYPES, { error: (issue) => `unknown slot type ${JSON.stringify(issue.input)} (one of ${SLOT_TYPES.join(', ')})` });
const slotDetails = { type: slotType.default('str'), description: z.string().optional(), default: z.unknown().optional() };

// The hosted service's slot format is not shown, so both shapes are read: a list of named specs or a map of name to type/spec.
const slotList = z.array(z.looseObject({ name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'slot names are letters, digits and _'), ...slotDetails }));
const slotMap = z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'slot names are letters, digits and _'), z.union([slotType, z.looseObject(slotDetails)]));
const slots = z.union([slotList, slotMap]).default([]);

/** Training sample formats the curator writes (sample-format.ts). */
export const SAMPLE_FORMATS = ['openai', 'alpaca', 'sharegpt'] as const;
export type SampleFormat = (typeof SAMPLE_FORMATS)[number];

const datasetName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, 'dataset names are 1-100 letters, digits, ., _ or - (not starting with . _ or -)');
const trainingDataHook = z.looseObject({ format: z.enum(SAMPLE_FORMATS).default('openai'), dataset: datasetName.optional() });

// `promotion_criteria`: the candidate answers held-out prompts before it takes over (promotion-evaluation.ts).
const learningLoopTarget = z.looseObject({
  trigger_after_labeled_samples: z.number().int().min(1).optional(),
  promotion_criteria: z.looseObject({ held_out_samples: z.number().int().min(1).max(100).default(3), min_overlap: z.number().min(0).max(1).default(0) }).optional(),
});

const nodeShape = {
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'node ids are 1-64 letters, digits, _ or -'),
  kind: z.literal('llm', { error: 'only nodes of kind "llm" are supported' }).default('llm'),
  role: z.string().default(''),
  prompt: z.string().min(1, 'a node needs a prompt'),
  tools: z.array(z.string().min(1)).default([]),
  model: z.string().regex(/^[^/]+\/.+$/, 'model is "<provider>/<model id>"').optional(),
};
export const blueprintNodeSchema = z.looseObject(nodeShape);

/** A blueprint as the hosted service (or a user) writes it; unknown extra fields are kept and ignored. */
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
  agent_graph: z.strictObject({
    entry: z.string().min(1),
    nodes: z.array(blueprintNodeSchema).min(1, 'a graph needs at least one node'),
    edges: z.array(z.tuple([z.string(), z.string()])).default([]),
  }),
  success_criteria: z.union([z.string(), z.array(z.string())]).optional(),
  budget_usd: z.number().positive().optional(),
  /** A plain description (kept, unused) or the learning loop's settings for this blueprint. */
  learning_loop_target: z.union([z.string(), learningLoopTarget]).optional(),
  /** Where and how the curator writes this blueprint's samples; one hook or several. */
  training_data_hooks: z.union([trainingDataHook, z.array(trainingDataHook)]).optional(),
  /** Optional estimates the healing engine compares executions with. */
  estimated_cost_usd: z.number().min(0).optional(),
  estimated_duration_seconds: z.number().min(0).optional(),
};
export const blueprintSchema = z.looseObject(blueprintShape);

// Typed from the declared fields only: the extra fields a loose object keeps are never read.
const declaredNode = z.object(nodeShape);
const declaredBlueprint = z.object({ ...blueprintShape, agent_graph: blueprintShape.agent_graph.extend({ nodes: z.array(declaredNode) }) });
export type BlueprintInput = z.infer<typeof declaredBlueprint>;
export type BlueprintNode = z.infer<typeof declaredNode>;

export interface SlotSpec {
  name: string;
  type: SlotType;
  required: boolean;
  description?: string;
  default?: unknown;
}

/** A validated blueprint: slots normalised to one list, nodes in execution order. */
export interface Blueprint extends Omit<BlueprintInput, 'required_slots' | 'optional_slots' | 'mode'> {
  mode: string;
  slots: SlotSpec[];
  /** Node ids in the order they run. */
  order: string[];
}
