import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkTokenAgent, type Authenticator, type Principal, type TokenService } from '../auth/index.js';
import { AuthenticationError, PermissionError } from '../errors.js';
import { checkCookieRequest, type CookieRequestPolicy } from './check-cookie-request.js';
import { watchCredential, type CredentialWatch } from './credential-watch.js';
import type { RouteAuth } from './route-auth.js';

export interface AuthHooks {
  /**
   * Authenticates the credential `request` presented again and, for an access token, takes one more use, as a
   * new request to the route would (its scope and agent included). Throws 401/403 when it is no longer good.
   */
  reauthorize(request: FastifyRequest): Promise<Principal>;
}

export interface StreamCredentialOptions {
  /** How often a stream opened with an access token reads it again (revoked or deleted). Default 30 s. */
  recheckMs?: number;
  /** The clock a credential's expiry is timed on (the authenticator's). */
  now?: () => Date;
}

const COOKIE_NAME = 'service_auth';

/** The default of auth.stream_recheck_seconds. */
export const DEFAULT_STREAM_RECHECK_MS = 30_000;

/**
 * Registers the hooks that authenticate every non-public route (onRequest) and bind access tokens to
 * agents (preHandler). `cookies` says which origins may change state with the service_auth cookie.
 * `request.watchCredential` (what the SSE writer uses) tells a stream when the request's credential lapses.
 */
export function registerAuthHooks(
  app: FastifyInstance,
  authenticator: Authenticator,
  tokens: TokenService,
  cookies: CookieRequestPolicy = { allowedOrigins: [] },
  streams: StreamCredentialOptions = {},
): AuthHooks {
  app.decorateRequest('principal', undefined);
  const watchOptions = {
    recheckMs: streams.recheckMs ?? DEFAULT_STREAM_RECHECK_MS,
    now: streams.now ? () => streams.now!().getTime() : Date.now,
    recheckToken: (tokenId: string) => tokens.recheck(tokenId),
  };
  // A method on the prototype: nothing per request until a stream asks.
  const watch: CredentialWatch = function (this: FastifyRequest, onLapse) {
    const principal = this.principal;
    return principal ? watchCredential(principal, onLapse, watchOptions) : () => undefined;
  };
  app.decorateRequest('watchCredential', watch);

  app.addHook('onRequest', async (request) => {
    // Unknown paths (and features switched off) answer 404 whoever asks: they hold nothing to protect.
    if (request.is404) return;
    const auth = routeAuth(request);
    if (auth === 'public') return;
    const presented = presentedCredential(request, auth);
    if (!presented)
      throw new AuthenticationError(
        'Credentials required: send Authorization: Bearer <token> or X-API-Key',
        'missing_credentials',
      );
    const principal = await authenticator.authenticate(presented.credential);
    // After authentication, so a stale cookie still answers 401 and the browser's page can log in again.
    if (presented.from === 'cookie') checkCookieRequest(request, cookies);
    checkRouteAccess(principal, auth);
    request.principal = principal;
  });

  // After body parsing, so the agent a request targets is known before a single-use token is spent.
  app.addHook('preHandler', async (request) => {
    const principal = request.principal;
    if (principal?.kind !== 'access_token') return;
    const auth = routeAuth(request);
    if (typeof auth !== 'object') return;
    // A connection's runs each take a use (reauthorize); opening it only checks the agent.
    if (auth.perRun?.(request)) return checkTokenAgent(principal, auth.agent?.(request));
    await tokens.consume(principal, auth.agent?.(request));
  });

  return {
    async reauthorize(request) {
      const auth = routeAuth(request);
      const presented = auth === 'public' ? undefined : presentedCredential(request, auth);
      if (auth === 'public' || !presented) throw new AuthenticationError('Credentials required', 'missing_credentials');
      const principal = await authenticator.authenticate(presented.credential);
      checkRouteAccess(principal, auth);
      if (principal.kind === 'access_token' && typeof auth === 'object')
        await tokens.consume(principal, auth.agent?.(request));
      return principal;
    },
  };
}

/** Whether a principal may use a route of this kind at all (its agent is checked later). */
function checkRouteAccess(principal: Principal, auth: Exclude<RouteAuth, 'public'>): void {
  if (auth === 'access_token' && principal.kind !== 'access_token')
    throw new PermissionError(
      'Only an access token can use this route: it answers about the token presented',
      'access_token_only',
    );
  if (principal.kind === 'access_token' && auth !== 'access_token') {
    if (auth === 'operator')
      throw new PermissionError('Access tokens cannot use this route; it needs a JWT or an API key', 'operator_only');
    if (!principal.scopes.includes(auth.scope))
      throw new PermissionError(`This access token lacks the "${auth.scope}" scope`, 'insufficient_scope');
  }
}

function routeAuth(request: FastifyRequest): RouteAuth {
  return request.routeOptions.config.auth ?? 'operator';
}

function presentedCredential(
  request: FastifyRequest,
  auth: RouteAuth,
): { credential: string; from: 'header' | 'cookie' | 'query' } | undefined {
  const authorization = request.headers.authorization;
  if (authorization) {
    const match = /^Bearer\s+(.+)$/i.exec(authorization);
    if (!match)
      throw new AuthenticationError('Authorization header must use the Bearer scheme', 'invalid_authorization_header');
    return { credential: match[1].trim(), from: 'header' };
  }
  const apiKey = request.headers['x-api-key'];
  if (typeof apiKey === 'string' && apiKey) return { credential: apiKey, from: 'header' };
  const cookie = readCookie(request.headers.cookie, COOKIE_NAME);
  if (cookie) return { credential: cookie, from: 'cookie' };
  const opensStream = request.method === 'GET' && typeof auth === 'object' && auth.queryToken;
  if (opensStream) {
    const token = (request.query as Record<string, unknown> | undefined)?.access_token;
    if (typeof token === 'string' && token) return { credential: token, from: 'query' };
  }
  return undefined;
}

function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return decodeCookieValue(part.slice(index + 1).trim());
  }
  return undefined;
}

/** A malformed %-escape is kept as sent (and then fails authentication) instead of crashing the request. */
function decodeCookieValue(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
