import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AdminService } from './admin.service.js';
import {
  budgetItem,
  listSessionsQuery,
  sessionDetail,
  sessionIdParams,
  sessionItem,
  systemStatus,
} from './system.schema.js';

/** GET /sessions, /sessions/{session_id}, /status (spec 4.3) and /budgets. */
export const adminSystemRoutes: FastifyPluginAsync<{ admin: AdminService }> = async (app, { admin }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin'];

  routes.get(
    '/sessions',
    {
      schema: {
        tags,
        summary:
          'List sessions active within admin.session_window_minutes that their caller named or continued, most recent first',
        querystring: listSessionsQuery,
        response: { 200: z.array(sessionItem) },
      },
    },
    (request) => admin.listSessions(request.query),
  );

  routes.get(
    '/sessions/:session_id',
    {
      schema: {
        tags,
        summary: 'Show one session with its stored conversation, whoever owns it',
        params: sessionIdParams,
        response: { 200: sessionDetail },
      },
    },
    (request) => admin.getSession(request.params.session_id),
  );

  routes.get(
    '/budgets',
    {
      schema: {
        tags,
        summary:
          "Every agent's daily budget for today and every access token cap spent from, with what is left, across all replicas",
        response: { 200: z.array(budgetItem) },
      },
    },
    () => admin.budgets(),
  );

  routes.get(
    '/status',
    {
      schema: {
        tags,
        summary: 'Health of the service: healthy, or degraded with reasons when the store or the bus is unreachable',
        response: { 200: systemStatus },
      },
    },
    () => admin.status(),
  );
};
