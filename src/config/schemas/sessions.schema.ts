import { z } from 'zod';

/** 16 MiB of stored turns: past what any model's context takes, so a session this long cannot be sent whole anyway. */
export const DEFAULT_MAX_SESSION_HISTORY_BYTES = 16 * 1024 * 1024;

const DEFAULTS = { max_history_bytes: DEFAULT_MAX_SESSION_HISTORY_BYTES };

/** Conversations kept per session id (X-Session-Id, AG-UI session_id, an A2A context). */
export const sessionsSchema = z
  .strictObject({
    /**
     * Bytes (the stored JSON of its messages, UTF-8) a session's history may reach with a request's new turns.
     * A request that would take it past is refused (413 session_history_too_large), nothing is dropped.
     */
    max_history_bytes: z.number().int().positive().default(DEFAULTS.max_history_bytes),
  })
  .default(DEFAULTS);

export type SessionsConfig = z.infer<typeof sessionsSchema>;
