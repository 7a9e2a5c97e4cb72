import { Redis } from 'ioredis';
import type { ListenerConfig } from '../../../config/index.js';
import { asError, closeSignal, type OpenConnection } from './listener-connection.js';

type RedisListener = Extract<ListenerConfig, { source: 'redis' }>;

/**
 * Subscribes to a Redis pub/sub channel (SUBSCRIBE) or pattern (PSUBSCRIBE). Pub/sub keeps nothing for
 * absent subscribers, so messages published while disconnected are lost: Redis gives at-most-once.
 */
export const openRedisConnection: OpenConnection<RedisListener> = async ({ listener, deliver, logger }) => {
  const redis = new Redis(listener.url, {
    lazyConnect: true,
    // The listener reconnects with its own backoff and state; ioredis must not retry behind its back.
    retryStrategy: () => null,
    autoResubscribe: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 10_000,
    connectionName: `agent-gateway:listener:${listener.name}`,
  });
  const { closed, settle } = closeSignal();
  let lastError: Error | undefined;
  redis.on('error', (error: Error) => {
    lastError = error;
  });
  redis.once('end', () => settle(lastError ?? new Error('redis connection closed')));

  const onMessage = (message: Buffer) => {
    deliver({ body: message }).catch((error: unknown) => logger.error({ trigger: `listener:${listener.name}`, err: error }, 'redis message could not be stored and is lost'));
  };
  redis.on('messageBuffer', (_channel: Buffer, message: Buffer) => onMessage(message));
  redis.on('pmessageBuffer', (_pattern: Buffer, _channel: Buffer, message: Buffer) => onMessage(message));

  try {
    await redis.connect();
    if (listener.channel !== undefined) await redis.subscribe(listener.channel);
    else await redis.psubscribe(listener.pattern!);
  } catch (error) {
    redis.disconnect();
    throw asError(lastError ?? error, 'redis connection failed');
  }
  return {
    closed,
    async close() {
      redis.disconnect();
      await closed;
    },
  };
};
