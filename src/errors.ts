import {
  ERROR_CATALOG,
  renderMessage,
  type CodeOf,
  type ErrorCode,
  type ErrorType,
  type MessageParams,
} from './error-catalog.js';

export {
  ERROR_CATALOG,
  isErrorCode,
  TOOL_ERROR_CATALOG,
  type CodeOf,
  type ErrorCatalogEntry,
  type ErrorCode,
  type ErrorType,
  type ToolErrorCode,
} from './error-catalog.js';

/**
 * Every error the service reports to clients. Domain code throws these; only http/error-handler.ts maps them.
 * The code decides the type and the HTTP status (src/error-catalog.ts); the message defaults to the code's template.
 */
export class AppError extends Error {
  readonly type: ErrorType;
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: Record<string, unknown>;

  constructor(options: { code: ErrorCode; message?: string; details?: Record<string, unknown>; cause?: unknown }) {
    const entry = ERROR_CATALOG[options.code];
    super(options.message ?? entry.message, { cause: options.cause });
    this.name = new.target.name;
    this.type = entry.type;
    this.code = options.code;
    this.status = entry.status;
    this.details = options.details;
  }
}

/** An error whose message is its code's template filled with `params`: `createError('run_not_found', { run_id })`. */
export function createError<C extends ErrorCode>(
  code: C,
  params?: MessageParams<C>,
  options: { details?: Record<string, unknown>; cause?: unknown } = {},
): AppError {
  return new AppError({ code, message: renderMessage(code, params), ...options });
}

export class ValidationError extends AppError {
  constructor(
    message: string,
    code: CodeOf<'invalid_request_error'> = 'invalid_request',
    details?: Record<string, unknown>,
  ) {
    super({ code, message, details });
  }
}

/** A JSON body nested deeper than `server.max_json_depth`: refused before anything parses or walks it. */
export class JsonTooDeepError extends ValidationError {
  constructor(readonly limit: number) {
    super(renderMessage('json_too_deep', { limit }), 'json_too_deep');
  }
}

export class AuthenticationError extends AppError {
  constructor(message?: string, code: CodeOf<'authentication_error'> = 'invalid_credentials') {
    super({ code, message });
  }
}

export class PermissionError extends AppError {
  constructor(message: string, code: CodeOf<'permission_error'> = 'insufficient_scope') {
    super({ code, message });
  }
}

export class NotFoundError extends AppError {
  constructor(message: string, code: CodeOf<'not_found_error'>) {
    super({ code, message });
  }
}

/** The path exists, but not for this method; `allowed` becomes the `Allow` header. */
export class MethodNotAllowedError extends AppError {
  readonly allowed: string[];
  constructor(method: string, path: string, allowed: string[]) {
    super({
      code: 'method_not_allowed',
      message: renderMessage('method_not_allowed', { method, path, allowed: allowed.join(', ') }),
    });
    this.allowed = allowed;
  }
}

/** A state move that is not allowed (409). */
export class ConflictError extends AppError {
  constructor(message: string, code: CodeOf<'conflict_error'>, details?: Record<string, unknown>) {
    super({ code, message, details });
  }
}

/** A run ended by a cancel (an operator, its client going away, the server shutting down): not a conflict. */
export class CancelledError extends AppError {
  constructor(message?: string, code: CodeOf<'cancelled_error'> = 'cancelled') {
    super({ code, message });
  }
}

/** Which budget refused a run (an agent's day, an access token's cap, the per-run ceiling, a mission's budget) and when. */
export interface BudgetRefusal {
  budget: 'agent_daily' | 'token' | 'run' | 'mission';
  /** `admission`: refused before its first model call; `model_call`: stopped before a later one. */
  stage: 'admission' | 'model_call';
}

export class BudgetExceededError extends AppError {
  /** For the budget-rejection metric's labels; never in a response body. */
  readonly refusal?: BudgetRefusal;
  constructor(message: string, refusal?: BudgetRefusal) {
    super({ code: 'budget_exceeded', message });
    this.refusal = refusal;
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message?: string) {
    super({ code: 'payload_too_large', message });
  }
}

export class RateLimitError extends AppError {
  readonly retryAfterSeconds?: number;
  constructor(message: string, retryAfterSeconds?: number, code: CodeOf<'rate_limit_error'> = 'rate_limited') {
    super({ code, message });
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

type UpstreamCode = CodeOf<'upstream_error' | 'timeout_error' | 'rate_limit_error'>;

/** A failure of an upstream model provider or remote service. `retryable` tells callers whether another attempt may succeed. */
export class UpstreamError extends AppError {
  readonly retryable: boolean;
  readonly upstreamStatus?: number;
  readonly retryAfterSeconds?: number;
  constructor(options: {
    message: string;
    /** Defaults by what happened: `upstream_timeout`, `upstream_rate_limited` (HTTP 429) or `upstream_error`. */
    code?: UpstreamCode;
    retryable: boolean;
    upstreamStatus?: number;
    retryAfterSeconds?: number;
    timeout?: boolean;
    cause?: unknown;
  }) {
    const code =
      options.code ??
      (options.timeout
        ? 'upstream_timeout'
        : options.upstreamStatus === 429
          ? 'upstream_rate_limited'
          : 'upstream_error');
    super({ code, message: options.message, cause: options.cause });
    this.retryable = options.retryable;
    this.upstreamStatus = options.upstreamStatus;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export class UnavailableError extends AppError {
  constructor(message: string, code: CodeOf<'unavailable_error'>) {
    super({ code, message });
  }
}

/** Seconds a client is told to wait (Retry-After) when the database is out of reach. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * The database refused, lost or did not answer a connection (db/connection-errors.ts decides): the request
 * may succeed once it is back, so it is a 503 with Retry-After, not a 500.
 */
export class DatabaseUnavailableError extends AppError {
  readonly retryAfterSeconds = DATABASE_RETRY_AFTER_SECONDS;
  /** The connection was lost during COMMIT: the transaction may have committed. */
  readonly commitUnknown: boolean;
  constructor(options: { message?: string; cause?: unknown; commitUnknown?: boolean } = {}) {
    super({ code: 'database_unavailable', message: options.message, cause: options.cause });
    this.commitUnknown = options.commitUnknown ?? false;
  }
}

/** A configuration file problem, reported as `file:line: message` before the server starts. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
