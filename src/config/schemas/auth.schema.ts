import { z } from 'zod';
import { perMinuteLimitSchema } from './rate-limit.schema.js';

const MAX_TOKEN_LIFETIME_SECONDS = 100 * 365 * 86_400;

export const authSchema = z.strictObject({
  api_keys: z.array(z.string().min(8, 'API keys must be at least 8 characters')).default([]),
  /** Requests and model tokens per minute for each operator credential (an API key, a JWT subject) on its own. */
  rate_limit: perMinuteLimitSchema.optional(),
  jwt: z
    .strictObject({
      secret: z.string().min(16, 'the JWT secret must be at least 16 characters'),
      issuer: z.string().optional(),
      audience: z.string().optional(),
    })
    .optional(),
  tokens: z
    .strictObject({
      default_expires_in_seconds: z.number().int().positive().default(86_400),
      // Bounded so that every expiry stays a valid date.
      max_expires_in_seconds: z
        .number()
        .int()
        .positive()
        .max(MAX_TOKEN_LIFETIME_SECONDS, 'max_expires_in_seconds must be at most 100 years')
        .default(30 * 86_400),
    })
    .refine((tokens) => tokens.default_expires_in_seconds <= tokens.max_expires_in_seconds, {
      path: ['default_expires_in_seconds'],
      message: 'default_expires_in_seconds must not exceed max_expires_in_seconds',
    })
    .default({ default_expires_in_seconds: 86_400, max_expires_in_seconds: 30 * 86_400 }),
  /**
   * How often a stream opened with an access token reads the token again, and ends once it was revoked or
   * deleted. Unset: 30 (the auth hooks' default), so configs built in code need not name it.
   */
  stream_recheck_seconds: z.number().positive().max(86_400).optional(),
});

export type AuthConfig = z.infer<typeof authSchema>;
