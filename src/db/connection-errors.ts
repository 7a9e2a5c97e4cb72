import { sleep } from '../sleep.js';
import { backoffDelay } from '../backoff.js';
import { DatabaseUnavailableError } from '../errors.js';

/** Socket errors of a connection that could not be made or was lost. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's SQLSTATEs for "the server or the connection is gone, try again": class 08 (connection
 * exception), admin and crash shutdown, cannot connect now, too many connections, and a statement cancelled
 * (statement_timeout, or pg_cancel_backend by an operator).
 */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);

/** pg reports these without a code: a lost socket, a client left unusable by one, and its own timeouts. */
const DRIVER_MESSAGES =
  /Connection terminated|not queryable|timeout exceeded when trying to connect|Query read timeout|connection timeout/i;

/**
 * True when SQLite refused a statement because another connection holds the lock it needs (SQLITE_BUSY, past the
 * short busy timeout, or SQLITE_LOCKED, with their extended codes), directly or as the cause of the 503 it became.
 */
export function isDatabaseLocked(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return isDatabaseLocked(error.cause);
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)(_|$)/.test(code);
}

/**
 * True when a database error says the database was out of reach (refused, lost, silent past the query
 * timeout; SQLite: locked by another process) rather than that the statement was wrong: the same statement may
 * succeed once it is back.
 */
export function isConnectionLoss(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  if (!(error instanceof Error)) return false;
  if (isDatabaseLocked(error)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08')))
    return true;
  // An AggregateError (a host with several addresses, all refused) carries its causes inside.
  if (error instanceof AggregateError) return error.errors.some(isConnectionLoss);
  return DRIVER_MESSAGES.test(error.message);
}

/**
 * `error` as the 503 clients get when it is a connection loss; any other error unchanged. `duringCommit`: the
 * statement that failed was COMMIT, so whether the transaction committed is unknown.
 */
export function asUnavailable(error: unknown, duringCommit = false): unknown {
  if (error instanceof DatabaseUnavailableError || !isConnectionLoss(error)) return error;
  return new DatabaseUnavailableError({ cause: error, commitUnknown: duringCommit });
}

/** The pause before attempt `attempt + 1` while the database is out of reach: 100 ms, doubling up to 2 s. */
export function reconnectDelayMs(attempt: number): number {
  return backoffDelay(attempt + 1, { initial: 100, max: 2_000 });
}

/**
 * `operation` again while it fails for a connection loss, until it succeeds, fails otherwise, or `signal` aborts
 * (then the last error is thrown): for a write whose outcome is known and must land, such as settling a
 * claimed item whose lease is still being renewed. A transaction whose COMMIT lost its connection may have
 * committed: unless the operation is `idempotent` (applying it twice changes nothing), that error is thrown at
 * once rather than risk applying it twice.
 */
export async function retryWhileUnreachable<T>(
  operation: () => Promise<T>,
  options: { signal?: AbortSignal; idempotent?: boolean } = {},
): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await operation();
    } catch (error) {
      const unavailable = asUnavailable(error);
      const retry =
        unavailable instanceof DatabaseUnavailableError &&
        (options.idempotent || !unavailable.commitUnknown) &&
        !options.signal?.aborted;
      if (!retry) throw unavailable;
      await sleep(reconnectDelayMs(attempt), options.signal).catch(() => undefined);
    }
  }
}
