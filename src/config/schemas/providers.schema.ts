import { z } from 'zod';

const callSettings = {
  /** Per-call timeout for one upstream model call. */
  timeout_ms: z.number().int().positive().default(120_000),
  /**
   * The longest the upstream may stay silent, before its first token or between two: a call that stalls
   * before its first token moves to its next target, one that stalls later fails. Unset: timeout_ms alone.
   */
  stall_timeout_ms: z.number().int().positive().optional(),
  /** Retries on 429/5xx/connection errors, only before the first byte reached the client. */
  max_retries: z.number().int().min(0).max(10).default(2),
  headers: z.record(z.string(), z.string()).default({}),
};

export const providerSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('openai'),
    api_key: z.string().min(1),
    base_url: z.url().optional(),
    organization: z.string().optional(),
    ...callSettings,
  }),
  z.strictObject({
    type: z.literal('openai-compatible'),
    base_url: z.url(),
    api_key: z.string().optional(),
    ...callSettings,
  }),
  z.strictObject({
    type: z.literal('anthropic'),
    api_key: z.string().min(1),
    base_url: z.url().optional(),
    ...callSettings,
  }),
  /** The offline development model: deterministic, no network. Never for production. */
  z.strictObject({ type: z.literal('dev') }),
]);

export const providersSchema = z
  .record(z.string().regex(/^[A-Za-z0-9_-]+$/, 'provider names use letters, digits, _ and -'), providerSchema)
  .default({});

export type ProviderConfig = z.infer<typeof providerSchema>;
export type ProvidersConfig = z.infer<typeof providersSchema>;
