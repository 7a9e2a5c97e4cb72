export { createServer, REDACTED_PATHS, type ServerOptions } from './create-server.js';
export { registerAuthHooks } from './auth-hook.js';
export { mapError, sendError, type ErrorBody } from './error-handler.js';
export { healthRoutes } from './health.routes.js';
export type { RouteAuth } from './route-auth.js';
