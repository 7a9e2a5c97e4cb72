import { propagation, ROOT_CONTEXT, SpanKind, type Span } from '@opentelemetry/api';
import { GATEWAY } from './gen-ai-attributes.js';
import { recordSpanError } from './record-error.js';
import { telemetrySettings, tracer } from './tracer.js';

export interface ConsumerSpanStart {
  /** `poll` for a poller's tick, `receive` for a listener's message. */
  operation: 'poll' | 'receive';
  /** The poller's or listener's configured name (the span is named `{operation} {trigger}`). */
  trigger: string;
  /** `messaging.system`: `rabbitmq`, `nats`, `mqtt`, `redis`, `sse`, or `http` for pollers. */
  system: string;
  /** The queue, subject, topic, channel or URL path the message came from. */
  destination?: string;
  messageId?: string;
  /** Message headers or properties that may hold the producer's `traceparent` (AMQP, NATS, MQTT 5). */
  carrier?: Record<string, string>;
}

/**
 * Runs `fn` with a CONSUMER span (messaging conventions), handed to it to store the work with (no span when telemetry is off),
 * so the inbox item keeps its `traceparent` and the runs it starts link to it. The span continues a producer's
 * trace carried in `carrier`, else starts a trace of its own (never a child of whatever happened to be current).
 */
export async function withConsumerSpan<T>(
  start: ConsumerSpanStart,
  fn: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!telemetrySettings.enabled) return fn(undefined);
  const parent = start.carrier ? propagation.extract(ROOT_CONTEXT, start.carrier) : ROOT_CONTEXT;
  const span = tracer().startSpan(
    `${start.operation} ${start.trigger}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.operation.name': start.operation,
        'messaging.operation.type': 'receive',
        'messaging.system': start.system,
        [GATEWAY.TRIGGER_NAME]: start.trigger,
        ...(start.destination !== undefined && { 'messaging.destination.name': start.destination }),
        ...(start.messageId !== undefined && { 'messaging.message.id': start.messageId }),
      },
    },
    parent,
  );
  try {
    return await fn(span);
  } catch (error) {
    recordSpanError(span, error);
    throw error;
  } finally {
    span.end();
  }
}
