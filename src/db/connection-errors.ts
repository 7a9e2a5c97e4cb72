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
 * True when a database error says the database was out of reach (refused, lost, silent past the query
 * timeout) rather than that the statement was wrong: the same statement may succeed once it is back.
 */
export function isConnectionLoss(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08')))
    return true;
  // An AggregateError (a host with several addresses, all refused) carries its causes inside.
  if (error instanceof AggregateError) return error.errors.some(isConnectionLoss);
  return DRIVER_MESSAGES.test(error.message);
}

/** `error` as the 503 clients get when it is a connection loss; any other error unchanged. */
export function asUnavailable(error: unknown): unknown {
  if (error instanceof DatabaseUnavailableError || !isConnectionLoss(error)) return error;
  return new DatabaseUnavailableError({ cause: error });
}
