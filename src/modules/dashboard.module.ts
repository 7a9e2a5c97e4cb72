import type { Authenticator } from '../auth/index.js';
import { createLoginCodeStore, dashboardRoutes, LOGIN_CODE_TTL_MS } from '../dashboard/index.js';
import { publicUrlOf, type AppContext } from './app-context.js';

/** The operator dashboard at /ui (when `ui.enabled`): its static files and cookie sign-in. */
export async function registerDashboard(
  { server, config, database }: AppContext,
  authenticator: Authenticator,
): Promise<void> {
  if (!config.ui.enabled) return;
  await server.register(dashboardRoutes, {
    authenticator,
    cookiePolicy: { allowedOrigins: config.server.cors.origins, publicBaseUrl: publicUrlOf(config) },
    loginCodes: createLoginCodeStore(database.db, { ttlMs: LOGIN_CODE_TTL_MS }),
    trustProxy: config.server.trust_proxy,
  });
}
