import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AdminService } from './admin.service.js';
import { listRunsQuery, runControlResult, runDetail, runIdParams, runItem } from './runs.schema.js';

const COMMANDS = {
  pause: 'Pause a running run at its next checkpoint; its events are held until resume',
  resume: 'Resume a paused run from its checkpoint',
  cancel: 'Cancel a running or paused run at once',
} as const;

/** GET /runs, GET /runs/{run_id} and POST /runs/{run_id}/pause|resume|cancel (spec 4.3). */
export const adminRunsRoutes: FastifyPluginAsync<{ admin: AdminService }> = async (app, { admin }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin'];

  routes.get(
    '/runs',
    {
      schema: {
        tags,
        summary: 'List runs, newest first',
        querystring: listRunsQuery,
        response: { 200: z.array(runItem) },
      },
    },
    (request) => admin.listRuns(request.query),
  );

  routes.get(
    '/runs/:run_id',
    {
      schema: {
        tags,
        summary: 'Show one run with every step and its prompt log',
        params: runIdParams,
        response: { 200: runDetail },
      },
    },
    (request) => admin.getRun(request.params.run_id),
  );

  for (const [command, summary] of Object.entries(COMMANDS) as [keyof typeof COMMANDS, string][]) {
    routes.post(
      `/runs/:run_id/${command}`,
      {
        schema: {
          tags,
          summary,
          description:
            '404 for an unknown run; 409 (with the current status) when the run is not in a state that allows it',
          params: runIdParams,
          response: { 200: runControlResult },
        },
      },
      (request) => admin.control(request.params.run_id, command),
    );
  }
};
