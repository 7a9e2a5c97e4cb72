import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_TYPE } from './gen-ai-attributes.js';
import { extractTraceContext, traceLogFields } from './trace-context.js';
import { tracer } from './tracer.js';

interface Traced {
  span: Span;
  errorType?: string;
}

// Kept on the request itself (a symbol-keyed property, not a WeakMap look-up): the request is what travels with
// the work, and handlers hand its span on explicitly (no context manager is registered).
const TRACED = Symbol('agent-gateway.traced');
type TracedRequest = FastifyRequest & { [TRACED]?: Traced };

/** The request's SERVER span: the parent of the runs it starts; undefined when telemetry is off. */
export function requestSpan(request: FastifyRequest): Span | undefined {
  return (request as TracedRequest)[TRACED]?.span;
}

/**
 * A SERVER span per request, named `{method} {route template}` (never the raw path, which holds ids), that
 * continues an incoming `traceparent`. The request's logger gets the span's trace and span ids bound, so
 * every line logged for the request carries them. Registered only when telemetry is on.
 */
export function registerHttpServerSpans(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
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
    (request as TracedRequest)[TRACED] = { span };
    const fields = traceLogFields(span);
    if (fields.trace_id) bindToRequestLog(request, reply, fields);
    done();
  });
  app.addHook('onError', (request, _reply, error, done) => {
    const entry = (request as TracedRequest)[TRACED];
    if (entry) {
      entry.span.recordException(error);
      entry.errorType = (error as { code?: string }).code ?? error.name;
    }
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const entry = (request as TracedRequest)[TRACED];
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

type PinoLogger = FastifyRequest['log'] & { setBindings?: (bindings: Record<string, unknown>) => void };

/**
 * The trace ids on every line of the request: added to the request's own logger (Fastify makes one per request)
 * rather than through a second child, which costs a pino level set-up per request.
 */
function bindToRequestLog(request: FastifyRequest, reply: FastifyReply, fields: Record<string, unknown>): void {
  const log = request.log as PinoLogger;
  if (log.setBindings) log.setBindings(fields);
  else reply.log = request.log = request.log.child(fields);
}
