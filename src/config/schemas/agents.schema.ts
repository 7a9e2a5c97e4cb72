import { z } from 'zod';
import { guardrailsOverrideSchema } from './guardrails.schema.js';
import { perMinuteLimitSchema } from './rate-limit.schema.js';

export const AGENT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

const MODEL_REF = z.string().regex(/^[^/]+\/.+$/, 'model is "<provider>/<model id>"');

export const agentSchema = z
  .strictObject({
    name: z
      .string()
      .regex(AGENT_NAME_PATTERN, 'agent names are 1-64 letters, digits, _, . or -, starting with a letter or digit'),
    /** One model, or a list: the first is the primary, the rest are tried in order when it fails (docs/operations.md). */
    model: z.union([MODEL_REF, z.array(MODEL_REF).min(1, 'model lists at least one model')]),
    system_prompt: z.string().default(''),
    description: z.string().default(''),
    capabilities: z.array(z.string()).default([]),
    tools: z.array(z.string()).default([]),
    temperature: z.number().min(0).max(2).default(0.7),
    max_iterations: z.number().int().min(1).max(100).default(10),
    max_tokens: z.number().int().positive().optional(),
    /** Publish this agent's card and accept A2A tasks for it. */
    a2a: z.boolean().default(true),
    /**
     * Tools that ask the caller (requires_input): offered to the model in A2A tasks; calling one puts the
     * task in input-required with the question, and the caller's next message on the task is its answer.
     */
    requires_input: z
      .array(
        z.strictObject({
          name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'tool names are 1-64 letters, digits, _ or -'),
          description: z.string().min(1),
        }),
      )
      .optional(),
    /** Merged field by field over the global `guardrails` section. */
    guardrails: guardrailsOverrideSchema.optional(),
    /** A run stops before its next model call once its cost reached this (USD). */
    max_cost_per_run_usd: z.number().positive().optional(),
    /** Spend of this agent's runs per UTC day (USD); runs beyond it fail with budget_exceeded. */
    daily_budget_usd: z.number().positive().optional(),
    /** Bytes of text one run may produce (UTF-8); past it the run fails with output_too_large. Default: runs.max_output_bytes. */
    max_output_bytes: z.number().int().positive().optional(),
    /** Requests and model tokens per minute for this agent, whoever calls it; 429 beyond. */
    rate_limit: perMinuteLimitSchema.optional(),
  })
  // The rest of the service sees one primary `model` (records, pricing by default, cards) and its fallbacks.
  .transform(({ model, ...agent }): typeof agent & { model: string; fallback_models?: string[] } => {
    if (typeof model === 'string') return { ...agent, model };
    const [primary, ...fallbacks] = model;
    return { ...agent, model: primary, ...(fallbacks.length > 0 && { fallback_models: fallbacks }) };
  });

export const agentsSchema = z.array(agentSchema).default([]);

export type AgentConfig = z.infer<typeof agentSchema>;
