import { context, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ERROR_TYPE } from './gen-ai-attributes.js';
import { extractTraceContext } from './trace-context.js';
import { tracer } from './tracer.js';

interface Traced {
  span: Span;
  context: Context;
  errorType?: string;
}

const traced = new WeakMap<FastifyRequest, Traced>();

/**
 * A SERVER span per request, named `{method} {route template}` (never the raw path, which holds ids), that
 * continues an incoming `traceparent`. The handler runs with the span current, so runs started by the
 * request (and the upstream calls they make) are its children. Registered only when telemetry is on.
 */
export function registerHttpServerSpans(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url;
    const span = tracer().startSpan(
      route ? `${request.method} ${route}` : request.method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          'url.path': request.url.split('?', 1)[0],
          'url.scheme': request.protocol,
          ...(route && { 'http.route': route }),
          ...(request.headers['user-agent'] && { 'user_agent.original': request.headers['user-agent'] }),
          'client.address': request.ip,
        },
      },
      extractTraceContext(request.headers),
    );
    const spanContext = trace.setSpan(context.active(), span);
    traced.set(request, { span, context: spanContext });
    context.with(spanContext, done);
  });
  // A body is read in the socket's own async context: the span is made current again for the handler.
  app.addHook('preHandler', (request, _reply, done) => {
    const entry = traced.get(request);
    if (entry) context.with(entry.context, done);
    else done();
  });
  app.addHook('onError', (request, _reply, error, done) => {
    const entry = traced.get(request);
    if (entry) {
      entry.span.recordException(error);
      entry.errorType = (error as { code?: string }).code ?? error.name;
    }
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const entry = traced.get(request);
    if (entry) {
      const { span } = entry;
      span.setAttribute('http.response.status_code', reply.statusCode);
      // Server spans are errors only for 5xx: a 4xx is the client's mistake (semantic conventions, HTTP spans).
      if (reply.statusCode >= 500) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.setAttribute(ERROR_TYPE, entry.errorType ?? String(reply.statusCode));
      }
      span.end();
    }
    done();
  });
}

/** The request's trace fields for its log line written after the response (outside the span's context). */
export function requestTraceFields(request: FastifyRequest): { trace_id?: string; span_id?: string } {
  const span = traced.get(request)?.span;
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
