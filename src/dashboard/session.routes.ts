import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Authenticator } from '../auth/index.js';
import { AuthenticationError, PermissionError, ValidationError } from '../errors.js';
import { checkCookieRequest, resolvePublicBaseUrl, type CookieRequestPolicy } from '../http/index.js';
import type { LoginCodeStore } from './login-code.store.js';
import { loginCode, sessionView, signedOut, signInBody } from './session.schema.js';
import { clearedSessionCookie, sessionCookie } from './session-cookie.js';

export interface SessionRoutesOptions {
  authenticator: Authenticator;
  /** Which origins may sign in (the same rule as cookie-authenticated state changes). */
  cookiePolicy: CookieRequestPolicy;
  /** The one-time codes printed by `agent-gateway ui` (app.ts: in the shared database). */
  loginCodes: LoginCodeStore;
  /** server.trust_proxy: only then may a request's Host (or X-Forwarded-Host) name the login link's host. */
  trustProxy?: boolean;
}

/** Sign-in to the dashboard: a pasted API key or JWT, or a one-time code, becomes the service_auth cookie. */
export const sessionRoutes: FastifyPluginCallback<SessionRoutesOptions> = (app, options, done) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const codes = options.loginCodes;
  const tags = ['dashboard'];
  const secure = (request: FastifyRequest) =>
    request.protocol === 'https' || options.cookiePolicy.publicBaseUrl?.startsWith('https:') === true;

  routes.post(
    '/api/v1/ui/session',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Sign in to the dashboard with an operator API key, JWT or login code: sets the service_auth cookie',
        body: signInBody,
        response: { 200: sessionView },
      },
    },
    async (request, reply) => {
      // The same rule as any cookie request that changes state: a JSON body from a page of ours.
      checkCookieRequest(request, options.cookiePolicy);
      const credential = request.body.credential ?? (await codes.redeem(request.body.code ?? ''));
      if (credential === undefined)
        throw new AuthenticationError('The login code is unknown, used or expired', 'invalid_login_code');
      const principal = await options.authenticator.authenticate(credential);
      if (principal.kind !== 'operator')
        throw new PermissionError(
          'Access tokens cannot sign in to the dashboard; use an API key or a JWT',
          'operator_only',
        );
      void reply.header('set-cookie', sessionCookie(credential, secure(request)));
      void reply.header('cache-control', 'no-store');
      return { method: principal.method, subject: principal.subject };
    },
  );

  routes.delete(
    '/api/v1/ui/session',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Sign out of the dashboard: clears the service_auth cookie',
        response: { 200: signedOut },
      },
    },
    (request, reply) => {
      void reply.header('set-cookie', clearedSessionCookie(secure(request)));
      return { signed_in: false as const };
    },
  );

  routes.get(
    '/api/v1/ui/session',
    {
      schema: {
        tags,
        summary: 'Who the dashboard is signed in as (401 when signed out)',
        response: { 200: sessionView },
      },
    },
    (request) => {
      const principal = request.principal;
      if (principal?.kind !== 'operator') throw new AuthenticationError();
      return { method: principal.method, subject: principal.subject };
    },
  );

  routes.post(
    '/api/v1/ui/login-codes',
    {
      schema: {
        tags,
        summary:
          'Issue a one-time dashboard login link for the credential of this request (what `agent-gateway ui` prints)',
        response: { 201: loginCode },
      },
    },
    async (request, reply) => {
      const credential = headerCredential(request);
      if (!credential)
        throw new ValidationError(
          'A login code stands for the credential of the request: send it in Authorization or X-API-Key',
          'credential_not_in_header',
        );
      const { code, expiresAt } = await codes.issue(credential);
      // public_url, else the listen address: a forged Host must not send the code to another site (issue #41).
      const base = resolvePublicBaseUrl(request, {
        publicUrl: options.cookiePolicy.publicBaseUrl,
        trustProxy: options.trustProxy ?? false,
      });
      void reply.code(201);
      return {
        code,
        login_url: `${base}/ui/login?code=${code}`,
        expires_at: expiresAt.toISOString(),
      };
    },
  );
  done();
};

function headerCredential(request: FastifyRequest): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim();
  const apiKey = request.headers['x-api-key'];
  return bearer ?? (typeof apiKey === 'string' && apiKey ? apiKey : undefined);
}
