import { z } from 'zod';

/** 10 MiB: far above any answer a model gives, far below what a runaway stream would hold in memory. */
export const DEFAULT_MAX_OUTPUT_BYTES = 10 * 1024 * 1024;

const DEFAULTS = { lease_seconds: 30, max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES, resume: true };

/** How replicas sharing the database (PostgreSQL, with or without Redis) keep track of each other's runs and mission executions. */
export const runsSchema = z
  .strictObject({
    /**
     * A run whose executing replica has not renewed its heartbeat for this long is taken as orphaned: it is
     * marked interrupted, its attached clients get the terminal event and its budget reservation is freed.
     * Heartbeats go out every sixth of it.
     */
    lease_seconds: z.number().min(1).max(3600).default(DEFAULTS.lease_seconds),
    /** Bytes of text one run may produce (UTF-8), unless its agent sets its own; past it the run fails with output_too_large. */
    max_output_bytes: z.number().int().positive().default(DEFAULTS.max_output_bytes),
    /**
     * A live replica (or this process after a restart) takes an orphaned run over and continues it from its
     * last stored step instead of marking it interrupted. Each step is then stored before the next call starts.
     */
    resume: z.boolean().default(DEFAULTS.resume),
  })
  .default(DEFAULTS);

export type RunsConfig = z.infer<typeof runsSchema>;
