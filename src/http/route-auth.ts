import type { FastifyRequest } from 'fastify';
import type { GrantingScope, Principal } from '../auth/index.js';
import type { CredentialWatch } from './credential-watch.js';

/**
 * How a route is protected, declared in its Fastify `config.auth`:
 * - `public`: no credentials (health, API docs, agent cards, signature-verified webhooks);
 * - `operator` (the default): a JWT or API key; access tokens get 403;
 * - `access_token`: an access token, whatever its scopes, answering about that token itself; operators get 403;
 * - `{ scope }`: a JWT/API key, or an access token holding `scope` and bound to the agent that
 *   `agent(request)` names (checked after the body is parsed). `queryToken` lets browser streams
 *   pass the credential as `?access_token=` on GET requests. A request for which `perRun(request)` is true opens
 *   a connection that starts runs of its own (a WebSocket): it is authenticated and bound to its agent, but a
 *   token's use and the rate limits are taken by each run (`AdmitRun`), not by the request.
 */
export type RouteAuth =
  | 'public'
  | 'operator'
  | 'access_token'
  | {
      scope: GrantingScope;
      agent?: (request: FastifyRequest) => string | undefined;
      queryToken?: boolean;
      perRun?: (request: FastifyRequest) => boolean;
    };

/**
 * Admits one more run on a connection that `request` opened, as a new request would be: its credential is
 * authenticated again (revoked, deleted, expired, spent), a use of an access token is taken, then the rate
 * limits. Resolves to a function that starts the run in the caller's context, so its model tokens are counted.
 */
export type AdmitRun = (request: FastifyRequest) => Promise<RunScope>;

/** Calls `start` where the tokens of the model calls it makes are counted on the caller's limits. */
export type RunScope = <T>(start: () => T) => T;

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    principal?: Principal;
    /** Set by the auth hooks: watches this request's credential for the life of a stream (credential-watch.ts). */
    watchCredential?: CredentialWatch;
  }
}
