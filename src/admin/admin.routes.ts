import type { FastifyPluginAsync } from 'fastify';
import type { AdminService } from './admin.service.js';
import { adminAgentsRoutes } from './agents.routes.js';
import { adminRunsRoutes } from './runs.routes.js';
import { adminSystemRoutes } from './system.routes.js';

export interface AdminRoutesOptions {
  admin: AdminService;
}

/** The admin API under /api/v1/admin (spec 4.3). Operators only: every route keeps the default auth. */
export const adminRoutes: FastifyPluginAsync<AdminRoutesOptions> = async (app, options) => {
  const prefix = '/api/v1/admin';
  await app.register(adminAgentsRoutes, { ...options, prefix });
  await app.register(adminRunsRoutes, { ...options, prefix });
  await app.register(adminSystemRoutes, { ...options, prefix });
};
