import type { ListenerConfig } from '../../../config/index.js';
import type { OpenConnection } from './listener-connection.js';
import { openAmqpConnection } from './open-amqp-connection.js';
import { openMqttConnection } from './open-mqtt-connection.js';
import { openNatsConnection } from './open-nats-connection.js';
import { openRedisConnection } from './open-redis-connection.js';
import { openRedisStreamConnection } from './open-redis-stream-connection.js';
import { createSseOpener } from './open-sse-connection.js';
import type { SourceLeaseStore } from './source-lease.store.js';

/** The client for a listener's source; one opener per listener, since the SSE one keeps its cursor. */
export function openConnectionFor(listener: ListenerConfig, deps: { leases?: SourceLeaseStore } = {}): OpenConnection {
  const source = listener.source;
  // Each opener takes its own config variant; the listener passed back in is always this one.
  switch (source) {
    case 'redis':
      return openRedisConnection as OpenConnection;
    case 'redis-stream':
      return openRedisStreamConnection as OpenConnection;
    case 'amqp':
      return openAmqpConnection as OpenConnection;
    case 'nats':
      return openNatsConnection as OpenConnection;
    case 'mqtt':
      return openMqttConnection as OpenConnection;
    case 'sse':
      return createSseOpener({ leases: deps.leases }) as OpenConnection;
    default: {
      const unhandled: never = source;
      throw new Error(`unknown listener source ${String(unhandled)}`);
    }
  }
}
