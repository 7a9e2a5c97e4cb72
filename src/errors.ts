/** Every error the service reports to clients. Domain code throws these; only http/error-handler.ts maps them. */
export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'conflict_error'
  | 'payment_required_error'
  | 'payload_too_large_error'
  | 'rate_limit_error'
  | 'upstream_error'
  | 'timeout_error'
  | 'server_error'
  | 'unavailable_error';

export class AppError extends Error {
  readonly type: ErrorType;
  readonly code: string;
  readonly status: number;
  readonly details?: Record<string, unknown>;

  constructor(options: {
    type: ErrorType;
    code: string;
    status: number;
    message: string;
    details?: Record<string, unknown>;
    cause?: unknown;
  }) {
    super(options.message, { cause: options.cause });
    this.name = new.target.name;
    this.type = options.type;
    this.code = options.code;
    this.status = options.status;
    this.details = options.details;
  }
}

export class ValidationError extends AppError {
  constructor(message: string, code = 'invalid_request', details?: Record<string, unknown>) {
    super({ type: 'invalid_request_error', code, status: 400, message, details });
  }
}

/** A JSON body nested deeper than `server.max_json_depth`: refused before anything parses or walks it. */
export class JsonTooDeepError extends ValidationError {
  constructor(readonly limit: number) {
    super(`The JSON body is nested more than ${limit} levels deep`, 'json_too_deep');
  }
}

export class AuthenticationError extends AppError {
  constructor(message = 'Missing or invalid credentials', code = 'invalid_credentials') {
    super({ type: 'authentication_error', code, status: 401, message });
  }
}

export class PermissionError extends AppError {
  constructor(message: string, code = 'insufficient_scope') {
    super({ type: 'permission_error', code, status: 403, message });
  }
}

export class NotFoundError extends AppError {
  constructor(message: string, code = 'not_found') {
    super({ type: 'not_found_error', code, status: 404, message });
  }
}

/** The path exists, but not for this method; `allowed` becomes the `Allow` header. */
export class MethodNotAllowedError extends AppError {
  readonly allowed: string[];
  constructor(method: string, path: string, allowed: string[]) {
    super({
      type: 'invalid_request_error',
      code: 'method_not_allowed',
      status: 405,
      message: `${method} is not allowed on ${path}; use ${allowed.join(', ')}`,
    });
    this.allowed = allowed;
  }
}

export class ConflictError extends AppError {
  constructor(message: string, code = 'conflict', details?: Record<string, unknown>) {
    super({ type: 'conflict_error', code, status: 409, message, details });
  }
}

export class BudgetExceededError extends AppError {
  constructor(message: string) {
    super({ type: 'payment_required_error', code: 'budget_exceeded', status: 402, message });
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message = 'Request body is too large') {
    super({ type: 'payload_too_large_error', code: 'payload_too_large', status: 413, message });
  }
}

export class RateLimitError extends AppError {
  readonly retryAfterSeconds?: number;
  constructor(message: string, retryAfterSeconds?: number, code = 'rate_limited') {
    super({ type: 'rate_limit_error', code, status: 429, message });
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** A failure of an upstream model provider or remote service. `retryable` tells callers whether another attempt may succeed. */
export class UpstreamError extends AppError {
  readonly retryable: boolean;
  readonly upstreamStatus?: number;
  readonly retryAfterSeconds?: number;
  constructor(options: {
    message: string;
    code?: string;
    retryable: boolean;
    upstreamStatus?: number;
    retryAfterSeconds?: number;
    timeout?: boolean;
    cause?: unknown;
  }) {
    const status = options.timeout ? 504 : options.upstreamStatus === 429 ? 429 : 502;
    const type: ErrorType = options.timeout ? 'timeout_error' : status === 429 ? 'rate_limit_error' : 'upstream_error';
    super({
      type,
      code: options.code ?? (options.timeout ? 'upstream_timeout' : 'upstream_error'),
      status,
      message: options.message,
      cause: options.cause,
    });
    this.retryable = options.retryable;
    this.upstreamStatus = options.upstreamStatus;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export class UnavailableError extends AppError {
  constructor(message: string, code = 'unavailable') {
    super({ type: 'unavailable_error', code, status: 503, message });
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
