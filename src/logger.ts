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

/**
 * `log` with `bindings` on every line, the pino child made only when a first line is written: a traced run gets
 * one, and most runs never log (a child costs a level set-up and a bindings string, ~10 µs per run).
 */
export function withBindingsOnUse(log: Logger, bindings: Record<string, unknown>): Logger {
  if (!log.child) return log;
  let bound: Logger | undefined;
  const target = () => (bound ??= log.child!(bindings));
  return {
    debug: (details, message) => target().debug(details, message),
    info: (details, message) => target().info(details, message),
    warn: (details, message) => target().warn(details, message),
    error: (details, message) => target().error(details, message),
    child: (more) => withBindingsOnUse(target(), more),
  };
}

/**
 * `log`, with the warnings and errors of an outage (their `err` matches `isOutage`) written at most once per
 * `windowMs` for each message, the next line saying how many it left out (`repeated`). Background loops retry
 * every second while a shared service is down; one line per loop per 30 s says as much.
 */
export function quietDuringOutages(log: Logger, isOutage: (error: unknown) => boolean, windowMs = 30_000): Logger {
  const seen = new Map<string, { at: number; left: number }>();
  const quiet =
    (level: 'warn' | 'error') =>
    (details: object, message: string): void => {
      if (!isOutage((details as { err?: unknown }).err)) return log[level](details, message);
      const now = Date.now();
      const last = seen.get(message);
      if (last && now - last.at < windowMs) {
        last.left += 1;
        return;
      }
      seen.set(message, { at: now, left: 0 });
      log[level](last?.left ? { ...details, repeated: last.left } : details, message);
    };
  return {
    debug: (details, message) => log.debug(details, message),
    info: (details, message) => log.info(details, message),
    warn: quiet('warn'),
    error: quiet('error'),
    child: log.child && ((bindings) => quietDuringOutages(log.child!(bindings), isOutage, windowMs)),
  };
}
