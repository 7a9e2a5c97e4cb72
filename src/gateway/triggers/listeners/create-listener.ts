import type { ListenerConfig, TriggerSettings } from '../../../config/index.js';
import { withConsumerSpan, type TraceSpan } from '../../../telemetry/index.js';
import { decodeMessage } from '../decode-message.js';
import { sleepUnlessAborted } from '../../../sleep.js';
import { sourceBackoffMs, type Sleep } from '../source-backoff.js';
import { createSourceState, sourceLifecycle } from '../source-state.js';
import type { TriggerIntake } from '../trigger-intake.service.js';
import { PermanentSourceError, type TriggerSource } from '../trigger-source.js';
import type { TriggerRef } from '../trigger.types.js';
import type { Deliver, OpenConnection } from './listener-connection.js';
import type { Logger } from '../../../logger.js';

export interface ListenerOptions {
  listener: ListenerConfig;
  /** The source's client, e.g. openRedisConnection; picked by openConnectionFor in normal use. */
  open: OpenConnection;
  intake: TriggerIntake;
  settings: TriggerSettings;
  logger: Logger;
  /** Unique among the replicas sharing the database and brokers; see defaultReplicaId. */
  replicaId: string;
  /** `server.max_json_depth`: a message nested deeper is rejected, like an HTTP body. */
  maxJsonDepth?: number;
  now?: () => Date;
  sleep?: Sleep;
}

/**
 * Keeps one listener connected: opens a connection, and when it is lost (or cannot be opened) waits
 * with doubling backoff and opens another. Each message is stored before the client acknowledges it.
 */
export function createListener(options: ListenerOptions): TriggerSource {
  const { listener, intake } = options;
  const ref: TriggerRef = { kind: 'listener', name: listener.name };
  const now = options.now ?? (() => new Date());
  const sleep = options.sleep ?? sleepUnlessAborted;
  const fields = { trigger: `listener:${listener.name}`, source: listener.source };
  const state = createSourceState(fields, options.logger);

  const store = async (message: Parameters<Deliver>[0], trace: TraceSpan): Promise<void> => {
    const decoded = decodeMessage(message, { ...listener, maxJsonDepth: options.maxJsonDepth });
    if (!decoded.ok) return intake.reject(ref, decoded.reason);
    await intake.receive({
      trigger: ref,
      event: decoded.event,
      payload: decoded.payload,
      dedupeKey: decoded.dedupeKey,
      trace,
    });
  };
  // Each message is stored inside its own `receive` span: the inbox item keeps its traceparent, the runs link to it.
  const system = MESSAGING_SYSTEMS[listener.source];
  const destination = destinationOf(listener);
  const deliver: Deliver = (message) =>
    withConsumerSpan(
      {
        operation: 'receive',
        trigger: listener.name,
        system,
        destination,
        messageId: message.messageId,
        carrier: message.traceCarrier,
      },
      (span) => store(message, span),
    );

  async function run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      let lost: Error;
      try {
        const connection = await options.open({
          listener,
          deliver,
          logger: options.logger,
          signal,
          replicaId: options.replicaId,
          standby: () => state.standby(),
        });
        if (signal.aborted) {
          await connection.close();
          break;
        }
        state.connected();
        const reason = await untilAborted(connection.closed, signal);
        if (reason === undefined) {
          await connection.close();
          break;
        }
        lost = reason;
      } catch (error) {
        if (signal.aborted) break;
        if (error instanceof PermanentSourceError) {
          state.gaveUp(error);
          return;
        }
        lost = error instanceof Error ? error : new Error(String(error));
      }
      const delayMs = sourceBackoffMs(state.failed(lost), options.settings.source_backoff);
      state.backingOff(new Date(now().getTime() + delayMs));
      await sleep(delayMs, signal);
      if (!signal.aborted) state.connecting();
    }
    state.stopped();
  }

  return {
    kind: 'listener',
    name: listener.name,
    source: listener.source,
    ...sourceLifecycle(state, run),
  };
}

/** `messaging.system` values: the conventions' name where it has one (rabbitmq), else the client's. */
const MESSAGING_SYSTEMS: Record<ListenerConfig['source'], string> = {
  amqp: 'rabbitmq',
  nats: 'nats',
  mqtt: 'mqtt',
  redis: 'redis',
  'redis-stream': 'redis',
  sse: 'sse',
};

function destinationOf(listener: ListenerConfig): string {
  switch (listener.source) {
    case 'amqp':
      return listener.queue;
    case 'nats':
      return listener.subject;
    case 'mqtt':
      return listener.topic;
    case 'redis':
      return listener.channel ?? listener.pattern ?? '';
    case 'redis-stream':
      return listener.stream;
    case 'sse':
      return new URL(listener.url).pathname;
  }
}

/** The promise's value, or undefined as soon as the signal aborts. */
async function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  let onAbort!: () => void;
  const aborted = new Promise<undefined>((resolve) => {
    onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
