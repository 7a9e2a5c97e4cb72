import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';

/** Headers of the inner answer that describe its own connection or framing, not the page. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date']);

/**
 * Serves Swagger UI under `prefix` (its page, assets, /json and /yaml) for the document `app.swagger()` builds.
 * @fastify/swagger-ui, with its @fastify/static, send, glob and yaml, loads on the first request under the
 * prefix instead of at start-up: into an inner Fastify instance that the routes here forward to, so the
 * gateway's own hooks (request log, CORS, the public-route marking) still apply to every answer.
 */
export function registerLazySwaggerUi(app: FastifyInstance, prefix: string): void {
  let inner: Promise<FastifyInstance> | undefined;
  const load = async () => {
    const { default: swaggerUi } = await import('@fastify/swagger-ui');
    const ui = Fastify({ logger: false });
    await ui.register(documentOf(app));
    await ui.register(swaggerUi, { routePrefix: prefix });
    await ui.ready();
    return ui;
  };
  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    inner ??= load().catch((error: unknown) => {
      // A failed load is retried by the next request rather than remembered.
      inner = undefined;
      throw error;
    });
    const answer = await (
      await inner
    ).inject({ method: 'GET', url: request.url, headers: request.headers as Record<string, string> });
    // Paths the UI does not serve get the gateway's own 404 (its error shape), as before.
    if (answer.statusCode === 404) return reply.callNotFound();
    for (const [name, value] of Object.entries(answer.headers))
      if (value !== undefined && !HOP_BY_HOP.has(name.toLowerCase())) void reply.header(name, value);
    return reply.code(answer.statusCode).send(answer.rawPayload.length > 0 ? answer.rawPayload : undefined);
  };
  for (const url of [prefix, `${prefix}/*`]) app.get(url, { schema: { hide: true } }, forward);
}

/**
 * Stands in for @fastify/swagger inside the inner instance: swagger-ui requires a plugin of that name and
 * reads the document through `swagger()`, here the gateway's own (generated once, on first call).
 */
function documentOf(app: FastifyInstance) {
  const plugin = (instance: FastifyInstance, _options: unknown, done: () => void) => {
    instance.decorate('swagger', app.swagger.bind(app));
    done();
  };
  // What fastify-plugin sets: no encapsulation (the decorator is visible to swagger-ui) and the plugin's name.
  return Object.assign(plugin, {
    [Symbol.for('skip-override')]: true,
    [Symbol.for('plugin-meta')]: { name: '@fastify/swagger' },
  });
}
