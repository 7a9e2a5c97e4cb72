/**
 * The one logger shape every folder takes: the part of pino's logger (and so Fastify's `server.log`)
 * the code uses. A leaf, like errors.ts: any folder may import it.
 */
export interface Logger {
  debug(details: object, message: string): void;
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
  /** A logger whose every line carries `bindings` (a traced run's trace ids); pino's own. */
  child?(bindings: Record<string, unknown>): Logger;
}

/** A Logger that drops everything, for callers that were given none. */
export const SILENT_LOGGER: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
