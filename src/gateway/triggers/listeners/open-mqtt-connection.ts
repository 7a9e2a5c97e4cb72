import { connect } from 'mqtt';
import type { ListenerConfig } from '../../../config/index.js';
import { asError, closeSignal, type OpenConnection } from './listener-connection.js';

type MqttListener = Extract<ListenerConfig, { source: 'mqtt' }>;

/**
 * Subscribes to an MQTT topic with QoS 1 in a persistent session (clean: false, a fixed client id), so
 * the broker keeps messages published while we are away. The PUBACK goes out only after the message is
 * stored: mqtt.js sends it when handleMessage calls back.
 */
export const openMqttConnection: OpenConnection<MqttListener> = async ({ listener, deliver, logger }) => {
  const client = connect(listener.url, {
    clientId: listener.client_id ?? `agent-gateway-${listener.name}`,
    clean: false,
    protocolVersion: 4,
    // The listener reconnects with its own backoff and state; the client must not retry behind its back.
    reconnectPeriod: 0,
    connectTimeout: 10_000,
    username: listener.username,
    password: listener.password,
  });
  const { closed, settle } = closeSignal();
  let lastError: Error | undefined;
  client.on('error', (error: Error) => {
    lastError = error;
  });
  client.once('close', () => settle(lastError ?? new Error('mqtt connection closed')));

  // Set before CONNACK: a resumed session's queued messages arrive right after it.
  client.handleMessage = (packet, callback) => {
    deliver({ body: packet.payload }).then(
      () => callback(),
      (error: unknown) => {
        logger.error({ trigger: `listener:${listener.name}`, err: error }, 'mqtt message could not be stored; reconnecting so the broker sends it again');
        // No PUBACK: ending the connection makes the broker redeliver the message in the resumed session.
        client.end(true);
      },
    );
  };

  try {
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      void closed.then(reject);
    });
    await client.subscribeAsync(listener.topic, { qos: 1 });
  } catch (error) {
    client.end(true);
    throw asError(error, 'mqtt connection failed');
  }
  return {
    closed,
    async close() {
      client.end(true);
      await closed;
    },
  };
};
