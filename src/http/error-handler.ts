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

export function sendError(reply: FastifyReply, status: number, body: ErrorBody): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

export function mapError(error: FastifyError): { status: number; body: ErrorBody } {
  if (error instanceof AppError) {
    return { status: error.status, body: { error: { type: error.type, code: error.code, message: error.message, ...error.details } } };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const message = error.validation
      .map((issue) => {
        const field = `${error.validationContext ?? 'body'}${issue.instancePath.replaceAll('/', '.')}`;
        return `${field}: ${issue.message}`;
      })
      .join('; ');
    return { status: 400, body: { error: { type: 'invalid_request_error', code: 'invalid_request', message, param: firstParam(error) } } };
  }
  const status = error.statusCode ?? 500;
  if (status === 413) return { status, body: { error: { type: 'payload_too_large_error', code: 'payload_too_large', message: 'Request body is too large' } } };
  if (status === 415) return { status, body: { error: { type: 'invalid_request_error', code: 'unsupported_media_type', message: error.message } } };
  if (status === 429) return { status, body: { error: { type: 'rate_limit_error', code: 'rate_limited', message: error.message } } };
  if (status >= 400 && status < 500) {
    const code = error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError ? 'invalid_json' : 'invalid_request';
    return { status, body: { error: { type: status === 404 ? 'not_found_error' : 'invalid_request_error', code, message: error.message } } };
  }
  return { status: 500, body: { error: { type: 'server_error', code: 'internal_error', message: 'Internal server error' } } };
}

function firstParam(error: FastifyError): string | undefined {
  const first = error.validation?.[0];
  if (!first) return undefined;
  return first.instancePath.replace(/^\//, '').replaceAll('/', '.') || undefined;
}
