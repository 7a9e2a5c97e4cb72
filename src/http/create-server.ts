import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { DEFAULT_MAX_JSON_DEPTH } from '../config/index.js';
import { JsonTooDeepError, UnavailableError, ValidationError } from '../errors.js';
import { createId } from '../ids.js';
import { registerHttpServerSpans } from '../telemetry/index.js';
import { answerClientError, answerFrameworkError, registerErrorHandler } from './error-handler.js';
import { findForbiddenKey } from './find-forbidden-key.js';
import { exceedsJsonDepth } from './exceeds-json-depth.js';
import { registerLazySwaggerUi } from './lazy-swagger-ui.js';

export interface ServerOptions {
  logLevel: string;
  bodyLimitBytes: number;
  /** Deepest nesting a JSON body may have (`server.max_json_depth`); 64 by default. */
  maxJsonDepth?: number;
  corsOrigins: string[];
  version: string;
  /** A pino destination stream for tests; stdout by default. */
  logStream?: NodeJS.WritableStream;
  /** Telemetry is on: a server span per request, and its trace id on every log line written within it. */
  tracing?: boolean;
}

/** Headers and query parameters that carry secrets: never written to a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

/** Response headers a browser page may read cross-origin (the fetch API hides all others). */
const EXPOSED_HEADERS = [
  'x-request-id',
  'x-session-id',
  'x-run-id',
  'x-gateway-overhead-ms',
  'retry-after',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
];

/** A Fastify instance with our logging, validation, error shape, request ids, CORS and OpenAPI. Routes are added by features. */
export async function createServer(options: ServerOptions): Promise<FastifyInstance> {
  const logger: FastifyServerOptions['logger'] = {
    level: options.logLevel,
    timestamp: () => `,"time":"${new Date().toISOString()}"`,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({
        method: req.method,
        url: redactQuery(req.url),
        request_id: req.id,
      }),
    },
    ...(options.logStream ? { stream: options.logStream } : {}),
  };
  const app = Fastify({
    logger,
    logController: new OneLinePerRequest(),
    bodyLimit: options.bodyLimitBytes,
    // A client's x-request-id is copied into every log line and the response: only a bounded, plain one is kept.
    requestIdHeader: false,
    genReqId: (request) => clientRequestId(request.headers['x-request-id']) ?? createId('req'),
    forceCloseConnections: 'idle',
    // Fastify's own 503 has a body of its own shape; the hook below answers in ours.
    return503OnClosing: false,
    // Errors Fastify answers before any route or hook runs get our shape too.
    frameworkErrors: (error, request, reply) => {
      answerFrameworkError(error, request, reply);
    },
    clientErrorHandler: answerClientError,
  });
  // Some clients send `content-type: application/json` with no body on POST/DELETE routes that take none
  // (revoke, cancel). Treat that as no body; anything else goes to Fastify's own (poisoning-safe) parser,
  // once the text is known not to nest deeper than anything recursive downstream can take.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const maxJsonDepth = options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text === '') done(null, undefined);
    else if (exceedsJsonDepth(text, maxJsonDepth)) done(new JsonTooDeepError(maxJsonDepth), undefined);
    // The callback form answers through `done`; it returns nothing to wait for.
    else
      void parseJson(request, text, (error, value) => {
        // Valid JSON refused all the same holds a poisoning key: the answer names where.
        const forbidden = error ? findForbiddenKey(text) : undefined;
        if (forbidden) done(new ValidationError(`${forbidden}: this key is not allowed in a request body`), undefined);
        else done(error, value);
      });
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  // First of the hooks, so the auth hook's log lines already carry the trace id.
  if (options.tracing) registerHttpServerSpans(app);

  // Requests that still arrive on open keep-alive connections while the server drains are turned away,
  // so a load balancer retries them elsewhere; the connection closes after the answer.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
    if (closing) throw new UnavailableError('The server is shutting down; retry the request', 'shutting_down');
  });
  // A keep-alive connection whose request was still in flight when close() began would hold close()
  // open for the whole keep-alive timeout (72 s): end it once its answer is out.
  app.addHook('onResponse', async (request) => {
    if (closing) request.raw.socket?.end();
  });

  if (options.corsOrigins.length > 0)
    await app.register(cors, { origin: options.corsOrigins, credentials: true, exposedHeaders: EXPOSED_HEADERS });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Agent Gateway',
        version: options.version,
        description: 'Serve, trigger and administer LLM agents.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'JWT, API key or sat- access token' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          // Spec section 5: autopilot routes (and every operator route) also take the service_auth cookie.
          serviceAuth: {
            type: 'apiKey',
            in: 'cookie',
            name: 'service_auth',
            description: 'A JWT or API key in a cookie; state changes also need a JSON body and an allowed Origin',
          },
        },
      },
      security: [{ bearer: [] }, { apiKey: [] }, { serviceAuth: [] }],
    },
    transform: jsonSchemaTransform,
  });
  // API docs are public: mark the UI's routes before they are added.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs') || route.url === '/openapi.json')
      route.config = { ...route.config, auth: 'public' };
  });
  registerLazySwaggerUi(app, '/docs');
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
  return app;
}

/**
 * One log line per request, written when it is answered, instead of Fastify's two ("incoming request"
 * and "request completed"): the completed line carries the request too (method, redacted url, request
 * id), its status and response time. Errors, stream errors and the rest stay as Fastify logs them.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error)
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/** Letters, digits and `_ . : -`, up to 128 characters: a UUID, a W3C traceparent or a load balancer's id. */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

function clientRequestId(header: string | string[] | undefined): string | undefined {
  return typeof header === 'string' && CLIENT_REQUEST_ID.test(header) ? header : undefined;
}

function redactQuery(url: string): string {
  return url.replace(/([?&](?:access_token|token|api_key)=)[^&]*/gi, '$1[redacted]');
}
