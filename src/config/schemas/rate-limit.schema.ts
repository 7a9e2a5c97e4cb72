import { z } from 'zod';

const limit = z.strictObject({
  max: z.number().int().min(1),
  time_window_seconds: z.number().int().min(1).max(86_400),
});

/** At most `max` requests per `time_window_seconds`, or `false` for no limit. */
export const rateLimitSchema = z.union([limit, z.literal(false)], {
  error: 'rate_limit is false or { max, time_window_seconds }',
});

export type RateLimitConfig = z.infer<typeof rateLimitSchema>;

/**
 * What one caller (an operator key, an access token) or one agent may use per minute: requests to the
 * agent-facing routes and model tokens (input + output). Unset fields are not limited.
 */
export const perMinuteLimitSchema = z.strictObject({
  requests_per_minute: z.number().int().min(1).optional(),
  tokens_per_minute: z.number().int().min(1).optional(),
});

export type PerMinuteLimit = z.infer<typeof perMinuteLimitSchema>;
