import type { ListenerConfig } from '../../../config/index.js';
import type { OpenConnection } from './listener-connection.js';
import { createSseOpener } from './open-sse-connection.js';
import type { SourceLeaseStore } from './source-lease.store.js';

/**
 * The client for a listener's source; one opener per listener, since the SSE one keeps its cursor. Broker
 * clients (amqplib, nats, mqtt, ioredis) load on the first connection, so a config without listeners of
 * that source never loads them (start-up time and idle memory).
 */
export function openConnectionFor(listener: ListenerConfig, deps: { leases?: SourceLeaseStore } = {}): OpenConnection {
  const source = listener.source;
  // Each opener takes its own config variant; the listener passed back in is always this one.
  switch (source) {
    case 'redis':
      return lazyOpener(async () => (await import('./open-redis-connection.js')).openRedisConnection);
    case 'redis-stream':
      return lazyOpener(async () => (await import('./open-redis-stream-connection.js')).openRedisStreamConnection);
    case 'amqp':
      return lazyOpener(async () => (await import('./open-amqp-connection.js')).openAmqpConnection);
    case 'nats':
      return lazyOpener(async () => (await import('./open-nats-connection.js')).openNatsConnection);
    case 'mqtt':
      return lazyOpener(async () => (await import('./open-mqtt-connection.js')).openMqttConnection);
    case 'sse':
      return createSseOpener({ leases: deps.leases }) as OpenConnection;
    default: {
      const unhandled: never = source;
      throw new Error(`unknown listener source ${String(unhandled)}`);
    }
  }
}

function lazyOpener(load: () => Promise<unknown>): OpenConnection {
  return async (context) => ((await load()) as OpenConnection)(context);
}
