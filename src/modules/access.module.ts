import type { AgentRegistry } from '../agents/index.js';
import { createAuthenticator, createTokenService, createTokenStore, loadOrCreateAdminKey } from '../auth/index.js';
import { createRedisRateLimitCounter } from '../bus/index.js';
import {
  createMemoryRateLimitCounter,
  RATE_LIMIT_WINDOW_MS,
  registerAuthHooks,
  registerLifecycle,
  registerRateLimits,
  type Metrics,
} from '../http/index.js';
import { publicUrlOf, warnEvery30s, type AppContext } from './app-context.js';

/**
 * Who may call and how often: access tokens, the authenticator (API keys, JWTs, tokens) and its hooks, then the
 * rate limits, which need the caller and the agent a request targets. The counters close with the server.
 */
export function registerAccess(ctx: AppContext, deps: { agents: AgentRegistry; metrics: Metrics }) {
  const { server, config, database, clock } = ctx;
  const tokens = createTokenService({
    store: createTokenStore(database.db),
    config: config.auth.tokens,
    agentExists: (name) => deps.agents.has(name),
  });
  const { authenticator, generatedAdminKey } = buildAuthenticator(ctx, tokens);
  const authHooks = registerAuthHooks(
    server,
    authenticator,
    tokens,
    { allowedOrigins: config.server.cors.origins, publicBaseUrl: publicUrlOf(config) },
    // Streams end when their credential lapses: a JWT at exp, an access token at expiry or once revoked.
    { recheckMs: config.auth.stream_recheck_seconds && config.auth.stream_recheck_seconds * 1000, now: clock },
  );
  const counterOutage = warnEvery30s(
    server.log,
    'rate-limit counters unreachable in Redis: requests go through uncounted until it is back',
  );
  const counter = config.server.redis_url
    ? createRedisRateLimitCounter({
        redisUrl: config.server.redis_url,
        windowMs: RATE_LIMIT_WINDOW_MS,
        onError: counterOutage,
      })
    : createMemoryRateLimitCounter();
  registerLifecycle(server, { close: () => counter.close() });
  const rateLimits = registerRateLimits(server, {
    counter,
    onCounterError: counterOutage,
    operatorLimit: config.auth.rate_limit,
    agentLimit: (name) => deps.agents.find(name)?.rate_limit,
    onReject: (rejection) => deps.metrics.observeRateLimitRejection(rejection),
  });
  return { tokens, authenticator, generatedAdminKey, authHooks, rateLimits };
}

function buildAuthenticator({ config, clock }: AppContext, tokens: ReturnType<typeof createTokenService>) {
  const apiKeys = [...config.auth.api_keys];
  let generatedAdminKey: { key: string; path: string } | undefined;
  if (apiKeys.length === 0 && !config.auth.jwt) {
    const admin = loadOrCreateAdminKey(config.server.data_dir);
    apiKeys.push(admin.key);
    if (admin.created) generatedAdminKey = { key: admin.key, path: admin.path };
  }
  return {
    authenticator: createAuthenticator({ config: config.auth, apiKeys, tokens, now: clock }),
    generatedAdminKey,
  };
}
