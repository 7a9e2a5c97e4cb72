import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, RateLimitError, UpstreamError, type ErrorType } from '../errors.js';

export interface ErrorBody {
  error: { type: ErrorType; code: string; message: string; [key: string]: unknown };
}

/** The one place where errors become HTTP responses: `{"error": {type, code, message}}`, never a stack trace. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const mapped = mapError(error as FastifyError);
    if (mapped.status >= 500) request.log.error({ err: error }, 'request failed');
    const retryAfter = error instanceof RateLimitError || error instanceof UpstreamError ? error.retryAfterSeconds : undefined;
    if (retryAfter !== undefined) void reply.header('retry-after', String(Math.ceil(retryAfter)));
    return sendError(reply, mapped.status, mapped.body);
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, { error: { type: 'not_found_error', code: 'route_not_found', message: `No route ${request.method} ${request.url.split('?')[0]}` } }),
  );
}

/** Types for 4xx errors raised by Fastify or a plugin rather than by our AppError classes. */
const CLIENT_ERROR_TYPES: Partial<Record<number, ErrorType>> = {
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'conflict_error',
};

export function sendError(reply: FastifyReply, status: number, body: ErrorBody): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

export function mapError(error: FastifyError): { status: number; body: ErrorBody } {
  if (error instanceof AppError) {
    return { status: error.status, body: { error: { type: error.type, code: error.code, message: error.message, ...error.details } } };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const problems = error.validation.flatMap((issue) => describeValidationIssue(error.validationContext ?? 'body', issue));
    const message = problems.map((problem) => `${problem.field}: ${problem.message}`).join('; ');
    return { status: 400, body: { error: { type: 'invalid_request_error', code: 'invalid_request', message, param: problems[0]?.param } } };
  }
  const status = error.statusCode ?? 500;
  if (status === 413) return { status, body: { error: { type: 'payload_too_large_error', code: 'payload_too_large', message: 'Request body is too large' } } };
  if (status === 415) return { status, body: { error: { type: 'invalid_request_error', code: 'unsupported_media_type', message: error.message } } };
  if (status === 429) return { status, body: { error: { type: 'rate_limit_error', code: 'rate_limited', message: error.message } } };
  if (status >= 400 && status < 500) {
    const code = error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError ? 'invalid_json' : 'invalid_request';
    return { status, body: { error: { type: CLIENT_ERROR_TYPES[status] ?? 'invalid_request_error', code, message: error.message } } };
  }
  return { status: 500, body: { error: { type: 'server_error', code: 'internal_error', message: 'Internal server error' } } };
}

interface ValidationProblem {
  /** Where, for the message: `body.expires_in_seconds`. */
  field: string;
  /** The field inside the request part, for the OpenAI-style `param`; undefined for the part as a whole. */
  param?: string;
  message: string;
}

function describeValidationIssue(context: string, issue: NonNullable<FastifyError['validation']>[number]): ValidationProblem[] {
  const path = issue.instancePath.split('/').filter(Boolean);
  const at = (segments: string[]) => ({ field: [context, ...segments].join('.'), param: segments.join('.') || undefined });
  const unknownKeys = (issue.params as { keys?: unknown }).keys;
  if (issue.keyword === 'unrecognized_keys' && Array.isArray(unknownKeys)) {
    return unknownKeys.map((key) => ({ ...at([...path, String(key)]), message: 'unknown field' }));
  }
  return [{ ...at(path), message: issue.message ?? 'invalid value' }];
}
