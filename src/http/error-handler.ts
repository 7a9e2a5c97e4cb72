import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import {
  AppError,
  DatabaseUnavailableError,
  MethodNotAllowedError,
  NotFoundError,
  RateLimitError,
  UpstreamError,
  ERROR_CATALOG,
  type ErrorCode,
  type ErrorType,
} from '../errors.js';
import { createRouteMethods } from './route-methods.js';

export interface ErrorBody {
  error: { type: ErrorType; code: ErrorCode; message: string; [key: string]: unknown };
}

/**
 * The one place where errors become HTTP responses: `{"error": {type, code, message}}`, never a stack trace.
 * Fastify's own answers (bad URL, over-long path parameter, unknown route or method, unreadable body,
 * malformed HTTP) are routed here too, so no client ever sees Fastify's `FST_` shape.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const mapped = mapError(error as FastifyError);
    if (mapped.status >= 500) request.log.error({ err: error }, 'request failed');
    const retryAfter =
      error instanceof RateLimitError || error instanceof UpstreamError || error instanceof DatabaseUnavailableError
        ? error.retryAfterSeconds
        : undefined;
    if (retryAfter !== undefined) void reply.header('retry-after', String(Math.ceil(retryAfter)));
    if (error instanceof MethodNotAllowedError) void reply.header('allow', error.allowed.join(', '));
    return sendError(reply, mapped.status, mapped.body);
  });

  const routes = createRouteMethods();
  // CORS answers preflights on every path (`OPTIONS *`): that is no route of an unknown path, which stays a 404.
  app.addHook('onRoute', (route) => {
    if (route.url !== '*' && route.url !== '/*') routes.add(route.method, route.url);
  });
  app.setNotFoundHandler(async (request) => {
    const path = request.url.split('?')[0];
    const allowed = routes.allowedFor(path);
    // A route of this very method that found nothing (a missing static file) is a 404, not a wrong method.
    if (allowed.length > 0 && !allowed.includes(request.method))
      throw new MethodNotAllowedError(request.method, path, allowed);
    throw new NotFoundError(`No route ${request.method} ${path}`, 'route_not_found');
  });
}

/** Fastify's `frameworkErrors`: a URL that does not decode, or a path parameter over `maxParamLength`, before any route or hook runs. */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const mapped = mapError(error);
  if (mapped.status >= 500) request.log.error({ err: error }, 'request failed');
  return sendError(reply.header('x-request-id', request.id), mapped.status, mapped.body);
}

/** Fastify's `clientErrorHandler`: HTTP the parser rejects (bad request line, headers too large, timeout) gets our shape and a closed connection. */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // A reset socket is gone: there is no one to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, body] = mapClientError(error.code);
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}

function mapClientError(code: string | undefined): [number, string, ErrorBody] {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'Request Timeout', catalogBody('request_timeout')];
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'Request Header Fields Too Large', catalogBody('headers_too_large')];
  return [400, 'Bad Request', catalogBody('malformed_request')];
}

/** A body straight from the catalog: the code's type and its message (or `message`). */
function catalogBody(code: ErrorCode, message: string = ERROR_CATALOG[code].message): ErrorBody {
  return { error: { type: ERROR_CATALOG[code].type, code, message } };
}

/** Types for 4xx errors raised by Fastify or a plugin rather than by our AppError classes. */
const CLIENT_ERROR_TYPES: Partial<Record<number, ErrorType>> = {
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'conflict_error',
};

/** Fastify's own client errors, in our words: the catalog's code, and a message when the template is not the one. */
const FRAMEWORK_ERRORS: Partial<Record<string, { code: ErrorCode; message?: string }>> = {
  FST_ERR_BAD_URL: { code: 'invalid_url' },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'path_parameter_too_long' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'unsupported_media_type' },
  FST_ERR_CTP_INVALID_TYPE: { code: 'invalid_request', message: 'The Content-Type header is not valid' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid_json' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid_json', message: 'The request body is empty; send a JSON body' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large' },
};

export function sendError(reply: FastifyReply, status: number, body: ErrorBody): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

export function mapError(error: FastifyError): { status: number; body: ErrorBody } {
  if (error instanceof AppError) {
    return {
      status: error.status,
      body: { error: { type: error.type, code: error.code, message: error.message, ...error.details } },
    };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    // Read through Fastify's own type: the provider's narrowed issue type does not resolve for the linter.
    const issues: NonNullable<FastifyError['validation']> = (error as FastifyError).validation ?? [];
    const problems = issues.flatMap((issue) => describeValidationIssue(error.validationContext ?? 'body', issue));
    const message = problems.map((problem) => `${problem.field}: ${problem.message}`).join('; ');
    return {
      status: 400,
      body: { error: { type: 'invalid_request_error', code: 'invalid_request', message, param: problems[0]?.param } },
    };
  }
  const framework = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
  if (framework)
    return { status: ERROR_CATALOG[framework.code].status, body: catalogBody(framework.code, framework.message) };
  const status = error.statusCode ?? 500;
  if (status === 413) return { status, body: catalogBody('payload_too_large') };
  if (status === 415) return { status, body: catalogBody('unsupported_media_type', error.message) };
  if (status === 429) return { status, body: catalogBody('rate_limited', error.message) };
  if (status >= 400 && status < 500) {
    const code = error instanceof SyntaxError ? 'invalid_json' : 'invalid_request';
    // Any other Fastify error keeps its (client-facing) message, never its FST_ code.
    return {
      status,
      body: { error: { type: CLIENT_ERROR_TYPES[status] ?? 'invalid_request_error', code, message: error.message } },
    };
  }
  return { status: 500, body: catalogBody('internal_error') };
}

interface ValidationProblem {
  /** Where, for the message: `body.expires_in_seconds`. */
  field: string;
  /** The field inside the request part, for the OpenAI-style `param`; undefined for the part as a whole. */
  param?: string;
  message: string;
}

function describeValidationIssue(
  context: string,
  issue: NonNullable<FastifyError['validation']>[number],
): ValidationProblem[] {
  const path = issue.instancePath.split('/').filter(Boolean);
  const at = (segments: string[]) => ({
    field: [context, ...segments].join('.'),
    param: segments.join('.') || undefined,
  });
  const unknownKeys = (issue.params as { keys?: unknown }).keys;
  if (issue.keyword === 'unrecognized_keys' && Array.isArray(unknownKeys)) {
    return unknownKeys.map((key) => ({ ...at([...path, String(key)]), message: 'unknown field' }));
  }
  return [{ ...at(path), message: issue.message ?? 'invalid value' }];
}
