import { Writable } from 'node:stream';

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

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
const LEVEL_COLOURS: Record<number, string> = { 40: '\x1b[33m', 50: '\x1b[31m', 60: '\x1b[31m' };
/** pino's own fields, said by the line's layout (or not at all). */
const LAYOUT_FIELDS = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'req', 'res', 'responseTime', 'err']);

/**
 * One pino JSON line as a person reads it: `12:03:04.567 WARN  message  key=value …`, a request as
 * `GET /path 200 1.2ms`, an error's stack below. A line that is not JSON passes through unchanged.
 */
export function formatLogLine(line: string, options: { colour?: boolean } = {}): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (typeof entry !== 'object' || entry === null) return line;
  const level = typeof entry.level === 'number' ? entry.level : 30;
  const name = (LEVEL_NAMES[level] ?? String(entry.level)).padEnd(5);
  const colour = options.colour ? LEVEL_COLOURS[level] : undefined;
  const time = typeof entry.time === 'string' ? entry.time.slice(11, 23) : '';
  const message =
    typeof entry.msg === 'string' || entry.msg === undefined ? (entry.msg ?? '') : JSON.stringify(entry.msg);
  const parts = [time, colour ? `${colour}${name}\x1b[0m` : name, message];
  const req = entry.req as { method?: string; url?: string } | undefined;
  const res = entry.res as { statusCode?: number } | undefined;
  if (req?.method) {
    const took = typeof entry.responseTime === 'number' ? ` ${entry.responseTime.toFixed(1)}ms` : '';
    parts.push(`${req.method} ${req.url ?? ''}${res?.statusCode ? ` ${res.statusCode}` : ''}${took}`);
  }
  const fields = Object.entries(entry)
    .filter(([key]) => !LAYOUT_FIELDS.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' && !/\s/.test(value) ? value : JSON.stringify(value)}`);
  if (fields.length > 0) parts.push(fields.join(' '));
  const err = entry.err as { stack?: string; message?: string } | undefined;
  const below = err ? `\n    ${(err.stack ?? err.message ?? JSON.stringify(err)).replaceAll('\n', '\n    ')}` : '';
  return `${parts.filter((part) => part !== '').join('  ')}${below}`;
}

/** A stream for pino that writes each JSON line to `out` as formatLogLine reads it. */
export function createPrettyLogStream(
  out: { write(text: string): unknown },
  options: { colour?: boolean } = {},
): Writable {
  let pending = '';
  return new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      pending += chunk.toString();
      let end: number;
      while ((end = pending.indexOf('\n')) >= 0) {
        out.write(`${formatLogLine(pending.slice(0, end), options)}\n`);
        pending = pending.slice(end + 1);
      }
      done();
    },
  });
}
