import { Redis } from 'ioredis';
import { closeSignal } from './listener-connection.js';

/**
 * A Redis connection for one listener, not yet connected. The listener reconnects with its own backoff and
 * state, so ioredis must not retry behind its back; `closed` settles with the reason once it ends.
 */
export interface ListenerRedis {
  redis: Redis;
  closed: Promise<Error>;
  /** The last error the connection reported (or `fail` recorded): the reason it ended. */
  lastError: () => Error | undefined;
  /** Records why the connection is being dropped, so `closed` settles with it. */
  fail: (error: Error) => void;
}

export function openListenerRedis(
  url: string,
  listenerName: string,
  options: { autoResubscribe?: boolean } = {},
): ListenerRedis {
  const redis = new Redis(url, {
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    connectTimeout: 10_000,
    connectionName: `agent-gateway:listener:${listenerName}`,
    ...options,
  });
  const { closed, settle } = closeSignal();
  let lastError: Error | undefined;
  redis.on('error', (error: Error) => {
    lastError = error;
  });
  redis.once('end', () => settle(lastError ?? new Error('redis connection closed')));
  return { redis, closed, lastError: () => lastError, fail: (error) => void (lastError = error) };
}
