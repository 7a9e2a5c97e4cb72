import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import {
  AppError,
  MethodNotAllowedError,
  NotFoundError,
  RateLimitError,
  UpstreamError,
  type ErrorType,
} from '../errors.js';
import { createRouteMethods } from './route-methods.js';

export interface ErrorBody {
  error: { type: ErrorType; code: string; message: string; [key: string]: unknown };
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
      error instanceof RateLimitError || error instanceof UpstreamError ? error.retryAfterSeconds : undefined;
    if (retryAfter !== undefined) void reply.header('retry-after', String(Math.ceil(retryAfter)));
    if (error instanceof MethodNotAllowedError) void reply.header('allow', error.allowed.join(', '));
    return sendError(reply, mapped.status, mapped.body);
  });

  const routes = createRouteMethods();
  app.addHook('onRoute', (route) => routes.add(route.method, route.url));
  app.setNotFoundHandler(async (request) => {
    const path = request.url.split('?')[0];
    const allowed = routes.allowedFor(path);
    if (allowed.length > 0) throw new MethodNotAllowedError(request.method, path, allowed);
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
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return [
      408,
      'Request Timeout',
      { error: { type: 'timeout_error', code: 'request_timeout', message: 'The request was not received in time' } },
    ];
  if (code === 'HPE_HEADER_OVERFLOW')
    return [
      431,
      'Request Header Fields Too Large',
      {
        error: {
          type: 'invalid_request_error',
          code: 'headers_too_large',
          message: 'The request headers are too large',
        },
      },
    ];
  return [
    400,
    'Bad Request',
    { error: { type: 'invalid_request_error', code: 'malformed_request', message: 'The request is not valid HTTP' } },
  ];
}

/** Types for 4xx errors raised by Fastify or a plugin rather than by our AppError classes. */
const CLIENT_ERROR_TYPES: Partial<Record<number, ErrorType>> = {
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'conflict_error',
};

/** Fastify's own client errors, in our words. */
const FRAMEWORK_ERRORS: Partial<Record<string, { status: number; type?: ErrorType; code: string; message: string }>> = {
  FST_ERR_BAD_URL: {
    status: 400,
    code: 'invalid_url',
    message: 'The URL path is not valid: a %-escape does not decode to UTF-8',
  },
  FST_ERR_MAX_PARAM_LENGTH: {
    status: 414,
    code: 'path_parameter_too_long',
    message: 'A path parameter is longer than 100 characters',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'Unsupported Content-Type: send the body as application/json',
  },
  FST_ERR_CTP_INVALID_TYPE: { status: 400, code: 'invalid_request', message: 'The Content-Type header is not valid' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'invalid_json', message: 'The request body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'invalid_json',
    message: 'The request body is empty; send a JSON body',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'invalid_content_length',
    message: 'The request body does not match its Content-Length',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    type: 'payload_too_large_error',
    code: 'payload_too_large',
    message: 'Request body is too large',
  },
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
    return {
      status: framework.status,
      body: {
        error: { type: framework.type ?? 'invalid_request_error', code: framework.code, message: framework.message },
      },
    };
  const status = error.statusCode ?? 500;
  if (status === 413)
    return {
      status,
      body: {
        error: { type: 'payload_too_large_error', code: 'payload_too_large', message: 'Request body is too large' },
      },
    };
  if (status === 415)
    return {
      status,
      body: { error: { type: 'invalid_request_error', code: 'unsupported_media_type', message: error.message } },
    };
  if (status === 429)
    return { status, body: { error: { type: 'rate_limit_error', code: 'rate_limited', message: error.message } } };
  if (status >= 400 && status < 500) {
    const code = error instanceof SyntaxError ? 'invalid_json' : 'invalid_request';
    // Any other Fastify error keeps its (client-facing) message, never its FST_ code.
    return {
      status,
      body: { error: { type: CLIENT_ERROR_TYPES[status] ?? 'invalid_request_error', code, message: error.message } },
    };
  }
  return {
    status: 500,
    body: { error: { type: 'server_error', code: 'internal_error', message: 'Internal server error' } },
  };
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
