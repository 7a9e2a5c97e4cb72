import { z } from 'zod';

/** `response_format` of Chat Completions; `text` is the default (no structured output). */
export const chatResponseFormat = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('text') }),
    z.object({ type: z.literal('json_object') }),
    z.object({
      type: z.literal('json_schema'),
      json_schema: z.object({
        name: z.string().regex(/^[\w-]{1,64}$/, 'name is 1-64 letters, digits, _ or -'),
        description: z.string().optional(),
        schema: z.record(z.string(), z.unknown()).optional(),
        strict: z.boolean().nullish(),
      }),
    }),
  ],
  { error: 'response_format.type must be one of text, json_object, json_schema' },
);

export type ChatResponseFormat = z.infer<typeof chatResponseFormat>;

const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;

/**
 * The sampling and output fields of Chat Completions the gateway honours: each reaches every model call of
 * the run, or (for a provider that cannot take it) the request is refused with a 400 naming it.
 */
export const chatOptionFields = {
  top_p: z.number().min(0).max(1).nullish().describe('Nucleus sampling, for every model call of the run'),
  stop: z
    .union([z.string(), z.array(z.string()).min(1).max(4)])
    .nullish()
    .describe('Up to 4 sequences where the model stops'),
  seed: z.number().int().nullish().describe('Best-effort deterministic sampling (OpenAI-wire providers)'),
  presence_penalty: z.number().min(-2).max(2).nullish().describe('OpenAI-wire providers'),
  frequency_penalty: z.number().min(-2).max(2).nullish().describe('OpenAI-wire providers'),
  logit_bias: z
    .record(z.string().regex(/^\d+$/, 'logit_bias keys are token ids'), z.number().min(-100).max(100))
    .nullish()
    .describe('Token id → bias from -100 to 100 (OpenAI-wire providers)'),
  reasoning_effort: z.enum(REASONING_EFFORTS).nullish().describe('Reasoning models (OpenAI-wire providers)'),
  verbosity: z.enum(['low', 'medium', 'high']).nullish().describe('OpenAI-wire providers'),
  response_format: chatResponseFormat
    .optional()
    .describe('Structured output: json_object, or json_schema (with strict) for the answer'),
  n: z
    .number()
    .int()
    .min(1)
    .max(1, 'n above 1 is not supported: an agent run gives one answer (send n requests)')
    .nullish()
    .describe('Only 1: an agent run gives one answer (docs/decisions/0074-one-choice-per-run.md)'),
};
