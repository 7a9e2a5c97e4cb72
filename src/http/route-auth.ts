import type { FastifyRequest } from 'fastify';
import type { GrantingScope, Principal } from '../auth/index.js';

/**
 * How a route is protected, declared in its Fastify `config.auth`:
 * - `public`: no credentials (health, API docs, agent cards, signature-verified webhooks);
 * - `operator` (the default): a JWT or API key; access tokens get 403;
 * - `access_token`: an access token, whatever its scopes, answering about that token itself; operators get 403;
 * - `{ scope }`: a JWT/API key, or an access token holding `scope` and bound to the agent that
 *   `agent(request)` names (checked after the body is parsed). `queryToken` lets browser streams
 *   pass the credential as `?access_token=` on GET requests.
 */
export type RouteAuth =
  | 'public'
  | 'operator'
  | 'access_token'
  | { scope: GrantingScope; agent?: (request: FastifyRequest) => string | undefined; queryToken?: boolean };

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    principal?: Principal;
  }
}
