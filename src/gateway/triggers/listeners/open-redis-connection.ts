import type { ListenerConfig } from '../../../config/index.js';
import { asError, type OpenConnection } from './listener-connection.js';
import { openListenerRedis } from './open-listener-redis.js';

type RedisListener = Extract<ListenerConfig, { source: 'redis' }>;

/**
 * Subscribes to a Redis pub/sub channel (SUBSCRIBE) or pattern (PSUBSCRIBE). Pub/sub keeps nothing for
 * absent subscribers, so messages published while disconnected are lost: Redis gives at-most-once.
 */
export const openRedisConnection: OpenConnection<RedisListener> = async ({ listener, deliver, logger }) => {
  const { redis, closed, lastError } = openListenerRedis(listener.url, listener.name, { autoResubscribe: false });

  const onMessage = (message: Buffer) => {
    deliver({ body: message }).catch((error: unknown) =>
      logger.error(
        { trigger: `listener:${listener.name}`, err: error },
        'redis message could not be stored and is lost',
      ),
    );
  };
  redis.on('messageBuffer', (_channel: Buffer, message: Buffer) => onMessage(message));
  redis.on('pmessageBuffer', (_pattern: Buffer, _channel: Buffer, message: Buffer) => onMessage(message));

  try {
    await redis.connect();
    if (listener.channel !== undefined) await redis.subscribe(listener.channel);
    else await redis.psubscribe(listener.pattern!);
  } catch (error) {
    redis.disconnect();
    throw asError(lastError() ?? error, 'redis connection failed');
  }
  return {
    closed,
    async close() {
      redis.disconnect();
      await closed;
    },
  };
};
