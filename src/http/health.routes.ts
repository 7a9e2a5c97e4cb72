import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

export interface HealthOptions {
  /** Returns the reasons the service cannot serve requests; empty when ready. */
  readiness: () => Promise<string[]>;
}

/** Liveness and readiness probes; public. */
export const healthRoutes: FastifyPluginAsync<HealthOptions> = async (app, { readiness }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const config = { auth: 'public' as const };
  routes.get(
    '/healthz',
    {
      config,
      schema: {
        tags: ['health'],
        summary: 'Liveness',
        security: [],
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    () => ({ status: 'ok' as const }),
  );
  routes.get(
    '/readyz',
    {
      config,
      schema: {
        tags: ['health'],
        summary: 'Readiness: the database is reachable',
        security: [],
        response: {
          200: z.object({ status: z.literal('ready') }),
          503: z.object({ status: z.literal('not_ready'), reasons: z.array(z.string()) }),
        },
      },
    },
    async (_request, reply) => {
      const reasons = await readiness();
      if (reasons.length > 0) return reply.code(503).send({ status: 'not_ready' as const, reasons });
      return { status: 'ready' as const };
    },
  );
};
