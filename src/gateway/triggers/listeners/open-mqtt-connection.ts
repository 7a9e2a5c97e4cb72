import { connect } from 'mqtt';
import type { ListenerConfig } from '../../../config/index.js';
import { asError, closeSignal, type OpenConnection } from './listener-connection.js';
import { readTraceCarrier } from './read-trace-carrier.js';

type MqttListener = Extract<ListenerConfig, { source: 'mqtt' }>;

/**
 * Subscribes to an MQTT topic with QoS 1 over MQTT 5, as a shared subscription (`$share/<group>/<topic>`)
 * by default, so each message reaches one replica. Each replica has its own client id (a shared id would
 * make the broker drop one connection for the other) and a persistent session that outlives a dropped
 * connection by session_expiry_seconds, so the broker keeps that replica's messages meanwhile. The
 * PUBACK goes out only after the message is stored: mqtt.js sends it when handleMessage calls back.
 */
export const openMqttConnection: OpenConnection<MqttListener> = async ({ listener, deliver, logger, replicaId }) => {
  const group = listener.shared_group ?? `agent-gateway-${listener.name}`;
  const topic = group === false ? listener.topic : `$share/${group}/${listener.topic}`;
  const client = connect(listener.url, {
    clientId: `${listener.client_id ?? `agent-gateway-${listener.name}`}-${replicaId}`,
    clean: false,
    protocolVersion: 5,
    // MQTT 5 ends a session when the connection does unless it is given an expiry.
    properties: { sessionExpiryInterval: listener.session_expiry_seconds },
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
    // MQTT 5 user properties carry the publisher's trace context, as W3C's MQTT binding proposes.
    const userProperties = packet.properties?.userProperties;
    const traceCarrier = userProperties ? readTraceCarrier((name) => userProperties[name]) : undefined;
    deliver({ body: packet.payload, traceCarrier }).then(
      () => callback(),
      (error: unknown) => {
        logger.error(
          { trigger: `listener:${listener.name}`, err: error },
          'mqtt message could not be stored; reconnecting so the broker sends it again',
        );
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
    const [granted] = await client.subscribeAsync(topic, { qos: 1 });
    // MQTT 5 answers a refused subscription (e.g. a broker without shared subscriptions) with a reason code of 0x80 or more.
    if (granted && granted.qos >= 0x80)
      throw new Error(`the broker refused the subscription to ${topic} (reason code ${granted.qos})`);
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
