import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AdminService } from './admin.service.js';
import { agentDetail, agentNameParams, agentSummary, listAgentsQuery } from './agents.schema.js';

/** GET /agents and /agents/{name} (spec 4.3). */
export const adminAgentsRoutes: FastifyPluginAsync<{ admin: AdminService }> = async (app, { admin }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin'];

  routes.get(
    '/agents',
    {
      schema: {
        tags,
        summary: 'List agents with their status and run count',
        querystring: listAgentsQuery,
        response: { 200: z.array(agentSummary) },
      },
    },
    (request) => admin.listAgents(request.query),
  );

  routes.get(
    '/agents/:name',
    {
      schema: {
        tags,
        summary: 'Show one agent with its prompt, tools and settings',
        params: agentNameParams,
        response: { 200: agentDetail },
      },
    },
    (request) => admin.getAgent(request.params.name),
  );
};
