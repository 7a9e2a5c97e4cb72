import { AckPolicy, connect, DeliverPolicy, type JsMsg, type Msg, type NatsConnection } from 'nats';
import type { ListenerConfig } from '../../../config/index.js';
import type { RawMessage } from '../decode-message.js';
import type { Deliver, OpenConnection } from './listener-connection.js';
import { readTraceCarrier } from './read-trace-carrier.js';

type NatsListener = Extract<ListenerConfig, { source: 'nats' }>;

/**
 * Subscribes to a NATS subject. With `stream`, reads through a JetStream durable consumer and acks each
 * message after it is stored (nak on failure, so it is redelivered); the stream position dedupes redeliveries.
 * Every replica pulls from the same durable consumer, so each message goes to one of them. Core NATS
 * subscribes in a queue group, so each message reaches one replica too, and keeps nothing for absent
 * subscribers, like Redis pub/sub.
 */
export const openNatsConnection: OpenConnection<NatsListener> = async ({ listener, deliver, logger }) => {
  // The listener reconnects with its own backoff and state; the client must not retry behind its back.
  const nc = await connect({
    servers: listener.url,
    reconnect: false,
    timeout: 10_000,
    name: `agent-gateway:listener:${listener.name}`,
  });
  const closed = nc.closed().then((error) => error ?? new Error('nats connection closed'));
  const log = (error: unknown) =>
    logger.error({ trigger: `listener:${listener.name}`, err: error }, 'nats message could not be stored');
  try {
    if (listener.stream) await consumeStream(nc, listener, listener.stream, deliver, log);
    else {
      consumeSubject(nc, listener, deliver, log);
      // Connected means subscribed: once the server has answered, it routes the subject to us.
      await nc.flush();
    }
  } catch (error) {
    await nc.close().catch(() => undefined);
    throw error;
  }
  return {
    closed,
    async close() {
      await nc.close().catch(() => undefined);
      await closed;
    },
  };
};

async function consumeStream(
  nc: NatsConnection,
  listener: NatsListener,
  stream: string,
  deliver: Deliver,
  log: (error: unknown) => void,
): Promise<void> {
  const durable = listener.durable ?? `agent-gateway-${listener.name}`;
  const jsm = await nc.jetstreamManager();
  // An existing durable consumer keeps its position (and its config); only a missing one is created.
  const exists = await jsm.consumers.info(stream, durable).then(
    () => true,
    () => false,
  );
  if (!exists)
    await jsm.consumers.add(stream, {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: listener.subject,
    });
  const consumer = await nc.jetstream().consumers.get(stream, durable);
  const messages = await consumer.consume({ max_messages: 64 });
  void (async () => {
    for await (const message of messages) {
      try {
        // Sequence plus stored time: stable across redeliveries, and still unique if the stream is ever recreated.
        await deliver(toRaw(message, `${stream}:${message.seq}:${message.info.timestampNanos}`));
        message.ack();
      } catch (error) {
        log(error);
        message.nak();
      }
    }
  })().catch(log);
}

function consumeSubject(
  nc: NatsConnection,
  listener: NatsListener,
  deliver: Deliver,
  log: (error: unknown) => void,
): void {
  const subscription = nc.subscribe(listener.subject, { queue: listener.queue ?? `agent-gateway-${listener.name}` });
  void (async () => {
    // One at a time, so events are stored in the order they were published.
    for await (const message of subscription)
      await deliver(toRaw(message, message.headers?.get('Nats-Msg-Id') || undefined)).catch(log);
  })().catch(log);
}

function toRaw(message: Msg | JsMsg, messageId: string | undefined): RawMessage {
  const { headers } = message;
  return {
    body: Buffer.from(message.data),
    messageId,
    traceCarrier: headers ? readTraceCarrier((name) => headers.get(name)) : undefined,
  };
}
