import { z } from 'zod';

const DEFAULTS = {
  max_attempts: 5,
  backoff_seconds: 30,
  max_backoff_seconds: 3600,
  concurrency: 4,
  poll_interval_ms: 1000,
  lease_seconds: 60,
  source_backoff: { initial_seconds: 1, max_seconds: 300 },
};

/** How the pollers' and listeners' inbox retries handler runs, and how sources retry after a failure. */
export const triggerSettingsSchema = z
  .strictObject({
    /** Handler runs per stored event, counting the first; then the event is kept as failed. */
    max_attempts: z.number().int().min(1).max(100).default(DEFAULTS.max_attempts),
    backoff_seconds: z.number().positive().default(DEFAULTS.backoff_seconds),
    max_backoff_seconds: z.number().positive().default(DEFAULTS.max_backoff_seconds),
    concurrency: z.number().int().min(1).max(100).default(DEFAULTS.concurrency),
    poll_interval_ms: z.number().int().min(10).default(DEFAULTS.poll_interval_ms),
    lease_seconds: z.number().int().min(5).default(DEFAULTS.lease_seconds),
    /** After a failed poll or a lost connection: wait initial_seconds, doubling per failure up to max_seconds; success resets. */
    source_backoff: z
      .strictObject({
        initial_seconds: z.number().positive().default(DEFAULTS.source_backoff.initial_seconds),
        max_seconds: z.number().positive().default(DEFAULTS.source_backoff.max_seconds),
      })
      .default(DEFAULTS.source_backoff),
  })
  .default(DEFAULTS);

export type TriggerSettings = z.infer<typeof triggerSettingsSchema>;
