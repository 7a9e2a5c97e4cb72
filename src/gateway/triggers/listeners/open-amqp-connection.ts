import { connect, type ConsumeMessage } from 'amqplib';
import type { ListenerConfig } from '../../../config/index.js';
import { asError, closeSignal, type OpenConnection } from './listener-connection.js';
import { readTraceCarrier } from './read-trace-carrier.js';

type AmqpListener = Extract<ListenerConfig, { source: 'amqp' }>;

/**
 * Consumes a durable RabbitMQ queue (optionally bound to an exchange) with manual acknowledgement: a
 * message is acked only after it is stored, so a message in flight when the connection drops is redelivered.
 */
export const openAmqpConnection: OpenConnection<AmqpListener> = async ({ listener, deliver, logger }) => {
  const connection = await connect(listener.url, {
    timeout: 10_000,
    clientProperties: { connection_name: `agent-gateway:listener:${listener.name}` },
  });
  const { closed, settle } = closeSignal();
  let lastError: Error | undefined;
  connection.on('error', (error: Error) => {
    lastError = error;
  });
  connection.once('close', (error?: Error) => settle(asError(error ?? lastError, 'amqp connection closed')));

  try {
    const channel = await connection.createChannel();
    channel.on('error', (error: Error) => {
      lastError = error;
    });
    // A channel closed by the broker (deleted queue, precondition failed) ends the whole session, so the listener reconnects.
    channel.once('close', () => void connection.close().catch(() => undefined));
    await channel.assertQueue(listener.queue, { durable: true });
    if (listener.exchange) {
      await channel.assertExchange(listener.exchange, listener.exchange_type, { durable: true });
      await channel.bindQueue(listener.queue, listener.exchange, listener.binding_key);
    }
    await channel.prefetch(listener.prefetch);
    await channel.consume(
      listener.queue,
      (message: ConsumeMessage | null) => {
        // null: the broker cancelled the consumer (e.g. the queue was deleted).
        if (message === null) return void connection.close().catch(() => undefined);
        const messageId =
          typeof message.properties.messageId === 'string' && message.properties.messageId !== ''
            ? message.properties.messageId
            : undefined;
        const headers = message.properties.headers;
        const traceCarrier = headers ? readTraceCarrier((name) => headers[name]) : undefined;
        deliver({ body: message.content, messageId, traceCarrier }).then(
          () => safely(() => channel.ack(message)),
          (error: unknown) => {
            logger.error(
              { trigger: `listener:${listener.name}`, err: error },
              'amqp message could not be stored; returned to the queue',
            );
            safely(() => channel.nack(message, false, true));
          },
        );
      },
      { noAck: false },
    );
  } catch (error) {
    await connection.close().catch(() => undefined);
    throw asError(error, 'amqp setup failed');
  }
  return {
    closed,
    async close() {
      await connection.close().catch(() => undefined);
      await closed;
    },
  };
};

/** Acking on a channel that has just closed throws; the broker redelivers the message anyway. */
function safely(action: () => void): void {
  try {
    action();
  } catch {
    // The message stays unacknowledged and comes back on the next connection.
  }
}
