import { z } from 'zod';

const DEFAULTS = { lease_seconds: 30, resume: true };

/** How replicas keep track of each other's runs (multi-process mode, with REDIS_URL). */
export const runsSchema = z
  .strictObject({
    /**
     * A run whose executing replica has not renewed its heartbeat for this long is taken as orphaned: it is
     * marked interrupted, its attached clients get the terminal event and its budget reservation is freed.
     * Heartbeats go out every sixth of it.
     */
    lease_seconds: z.number().min(1).max(3600).default(DEFAULTS.lease_seconds),
    /**
     * A live replica (or this process after a restart) takes an orphaned run over and continues it from its
     * last stored step instead of marking it interrupted. Each step is then stored before the next call starts.
     */
    resume: z.boolean().default(DEFAULTS.resume),
  })
  .default(DEFAULTS);

export type RunsConfig = z.infer<typeof runsSchema>;
