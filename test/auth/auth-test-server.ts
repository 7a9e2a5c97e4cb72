import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SignJWT } from 'jose';
import { z } from 'zod';
import {
  createAuthenticator,
  createTokenService,
  createTokenStore,
  tokensRoutes,
  type TokenService,
} from '../../src/auth/index.js';
import type { AuthConfig } from '../../src/config/index.js';
import { createDatabase, type DatabaseHandle } from '../../src/db/index.js';
import { createServer, registerAuthHooks } from '../../src/http/index.js';
import { LogCapture } from '../support/app.js';
import type { TestDatabase } from '../support/databases.js';

export const API_KEY = 'auth-test-api-key-0001';
export const JWT_SECRET = 'auth-test-jwt-secret-0123456789';
export const AGENTS = ['helper', 'other'];

/** A clock the tests move by hand, so token expiry is tested without waiting. */
export class TestClock {
  private current = new Date('2026-01-01T00:00:00.000Z');
  now = (): Date => new Date(this.current);
  advance(seconds: number): void {
    this.current = new Date(this.current.getTime() + seconds * 1000);
  }
}

export interface AuthTestServer {
  url: string;
  server: FastifyInstance;
  tokens: TokenService;
  database: DatabaseHandle;
  clock: TestClock;
  logs: LogCapture;
  close(): Promise<void>;
}

export interface AuthTestServerOptions {
  database: TestDatabase;
  apiKeys?: string[];
  jwt?: AuthConfig['jwt'] | null;
}

/**
 * The auth pieces assembled as src/app.ts does, plus probe routes that declare each kind of
 * `config.auth` and answer with the principal they saw.
 */
export async function startAuthTestServer(options: AuthTestServerOptions): Promise<AuthTestServer> {
  const database = await createDatabase({
    databaseUrl: options.database.databaseUrl,
    dataDir: options.database.dataDir,
    // Several of these servers share one test database in a file's tests.
    ownDataDir: false,
  });
  const clock = new TestClock();
  const authConfig: AuthConfig = {
    api_keys: options.apiKeys ?? [API_KEY],
    jwt: options.jwt === null ? undefined : (options.jwt ?? { secret: JWT_SECRET }),
    tokens: { default_expires_in_seconds: 86_400, max_expires_in_seconds: 30 * 86_400 },
  };
  const tokens = createTokenService({
    store: createTokenStore(database.db),
    config: authConfig.tokens,
    agentExists: (name) => AGENTS.includes(name),
    now: clock.now,
  });
  const authenticator = createAuthenticator({ config: authConfig, apiKeys: authConfig.api_keys, tokens });
  const logs = new LogCapture();
  const server = await createServer({
    logLevel: 'info',
    bodyLimitBytes: 1_048_576,
    corsOrigins: [],
    version: 'test',
    logStream: logs,
  });
  registerAuthHooks(server, authenticator, tokens);
  await server.register(tokensRoutes, { tokens });
  await server.register(probeRoutes);
  const url = await server.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    server,
    tokens,
    database,
    clock,
    logs,
    async close() {
      await server.close();
      await database.close();
    },
  };
}

const agentParams = z.object({ name: z.string() });

async function probeRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const principal = (request: { principal?: unknown }) => ({ principal: request.principal ?? null });
  const agentOf = (request: { params: unknown }) => (request.params as { name: string }).name;

  routes.get('/probe/public', { config: { auth: 'public' } }, principal);
  routes.get('/probe/operator', principal);
  routes.post(
    '/probe/agents/:name/chat',
    { config: { auth: { scope: 'chat', agent: agentOf } }, schema: { params: agentParams } },
    principal,
  );
  routes.get(
    '/probe/agents/:name/stream',
    { config: { auth: { scope: 'chat', agent: agentOf, queryToken: true } }, schema: { params: agentParams } },
    principal,
  );
  routes.post(
    '/probe/agents/:name/stream',
    { config: { auth: { scope: 'chat', agent: agentOf, queryToken: true } }, schema: { params: agentParams } },
    principal,
  );
  routes.get(
    '/probe/agents/:name/events',
    { config: { auth: { scope: 'chat', agent: agentOf } }, schema: { params: agentParams } },
    principal,
  );
  routes.get('/probe/tools', { config: { auth: { scope: 'tools' } } }, principal);
}

/** An HS256 JWT; `exp` is seconds since the epoch, or null for none. */
export async function signJwt(
  options: {
    secret?: string;
    exp?: number | null;
    claims?: Record<string, unknown>;
    issuer?: string;
    audience?: string;
    alg?: string;
  } = {},
): Promise<string> {
  const jwt = new SignJWT({ sub: 'operator-1', ...options.claims })
    .setProtectedHeader({ alg: options.alg ?? 'HS256' })
    .setIssuedAt();
  const exp = options.exp === undefined ? Math.floor(Date.now() / 1000) + 3600 : options.exp;
  if (exp !== null) jwt.setExpirationTime(exp);
  if (options.issuer) jwt.setIssuer(options.issuer);
  if (options.audience) jwt.setAudience(options.audience);
  return jwt.sign(new TextEncoder().encode(options.secret ?? JWT_SECRET));
}
