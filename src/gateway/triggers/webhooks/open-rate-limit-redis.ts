import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { Logger } from '../../../logger.js';

/** How long a request may wait on the counter before it is let through uncounted. */
const COMMAND_TIMEOUT_MS = 500;

/**
 * The connection that holds the webhook rate-limit counters, shared by every replica. It never holds a
 * delivery back for long: a command that finds Redis unreachable fails at once (no retries) or after
 * COMMAND_TIMEOUT_MS, and the limiter then lets the request through (skipOnError).
 */
export function openRateLimitRedis(url: string, logger: Logger): { redis: Redis; close(): Promise<void> } {
  const redis = new (loadRedis())(url, {
    connectionName: 'agent-gateway:webhook-rate-limit',
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    commandTimeout: COMMAND_TIMEOUT_MS,
  });
  // A Redis outage reports an error on every reconnect attempt: one line per 30 s is enough.
  let loggedAt = 0;
  redis.on('error', (error: Error) => {
    if (Date.now() - loggedAt < 30_000) return;
    loggedAt = Date.now();
    logger.warn(
      { err: error },
      'webhook rate-limit counters unreachable in Redis: webhooks are not rate limited until it is back',
    );
  });
  return {
    redis,
    async close() {
      if (redis.status !== 'ready') return redis.disconnect();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** ioredis loads when Redis is configured, not at every start (start-up time and idle memory). */
function loadRedis(): typeof Redis {
  return (createRequire(import.meta.url)('ioredis') as typeof import('ioredis')).Redis;
}
