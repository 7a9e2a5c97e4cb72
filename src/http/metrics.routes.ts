import type { FastifyInstance } from 'fastify';
import { GATEWAY_OVERHEAD_HEADER, type Metrics } from './metrics.js';

/**
 * Counts every request (by route pattern, so label values are bounded by the routes) and serves
 * GET /metrics in the Prometheus text format. /metrics needs operator credentials like every
 * non-public route: Prometheus sends them with `authorization` in its scrape config.
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    const overheadMs = reply.getHeader(GATEWAY_OVERHEAD_HEADER);
    if (overheadMs !== undefined) metrics.observeOverhead(route, Number(overheadMs) / 1000);
  });

  app.get(
    '/metrics',
    {
      schema: { tags: ['metrics'], summary: 'Prometheus metrics (text exposition format); operator credentials' },
    },
    async (_request, reply) => {
      const body = await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).send(body);
    },
  );
}
