import { z } from 'zod';
import { jsonPathSchema, triggerNameSchema, type PollersConfig } from './pollers.schema.js';
import { webhookHandlerSchema } from './webhooks.schema.js';

const url = (protocols: RegExp, names: string) => z.url({ protocol: protocols, error: `url must be ${names} URL` });

const common = {
  name: triggerNameSchema,
  /** Path to the event type in each JSON message; handlers match its value as webhook handlers match event names. */
  event_field: jsonPathSchema.default('type'),
  /** Path to an id in each message; a message whose id was stored before is a duplicate (brokers' own ids are used too). */
  id_field: jsonPathSchema.optional(),
  handlers: z.array(webhookHandlerSchema).default([]),
};

export const listenerSchema = z.discriminatedUnion('source', [
  z.strictObject({
    ...common,
    source: z.literal('redis'),
    url: url(/^rediss?$/, 'a redis:// or rediss://'),
    /** A pub/sub channel, or a glob pattern (PSUBSCRIBE) with `pattern`. */
    channel: z.string().min(1).optional(),
    pattern: z.string().min(1).optional(),
  }),
  z.strictObject({
    ...common,
    source: z.literal('amqp'),
    url: url(/^amqps?$/, 'an amqp:// or amqps://'),
    /** A durable queue, declared if missing. */
    queue: z.string().min(1),
    /** Bound to the queue with binding_key when given (declared durable if missing). */
    exchange: z.string().min(1).optional(),
    exchange_type: z.enum(['topic', 'direct', 'fanout', 'headers']).default('topic'),
    binding_key: z.string().default('#'),
    /** Unacknowledged messages in flight on the channel. */
    prefetch: z.number().int().min(1).max(1000).default(16),
  }),
  z.strictObject({
    ...common,
    source: z.literal('nats'),
    url: url(/^(nats|tls)$/, 'a nats:// or tls://'),
    subject: z.string().min(1),
    /** A JetStream stream: messages are read through a durable consumer and acknowledged after they are stored. */
    stream: z.string().min(1).optional(),
    /** The durable consumer's name; `agent-gateway-<listener name>` by default. */
    durable: z.string().regex(/^[A-Za-z0-9_-]+$/, 'durable is letters, digits, _ or -').optional(),
    /** Core NATS queue group, so replicas share the messages instead of each getting all of them. */
    queue: z.string().min(1).optional(),
  }),
  z.strictObject({
    ...common,
    source: z.literal('mqtt'),
    url: url(/^(mqtts?|wss?)$/, 'an mqtt://, mqtts://, ws:// or wss://'),
    /** Subscribed with QoS 1; MQTT wildcards (+, #) allowed. */
    topic: z.string().min(1),
    /** A persistent session keeps messages sent while disconnected; give each replica its own id. */
    client_id: z.string().min(1).max(128).optional(),
    username: z.string().optional(),
    password: z.string().optional(),
  }),
  z.strictObject({
    ...common,
    source: z.literal('sse'),
    url: url(/^https?$/, 'an http(s)'),
    headers: z.record(z.string(), z.string()).default({}),
  }),
]);

export const listenersSchema = z
  .array(listenerSchema)
  .default([])
  .superRefine((listeners, ctx) => {
    const seen = new Set<string>();
    listeners.forEach((listener, index) => {
      if (seen.has(listener.name)) ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `duplicate listener name "${listener.name}"` });
      seen.add(listener.name);
      if (listener.source === 'redis' && (listener.channel === undefined) === (listener.pattern === undefined)) {
        ctx.addIssue({ code: 'custom', path: [index, 'channel'], message: 'give exactly one of "channel" or "pattern"' });
      }
    });
  });

/** Poller and listener handlers must name configured agents; called from the whole config's superRefine. */
export function checkTriggerAgents(config: { pollers: PollersConfig; listeners: ListenersConfig; agents: { name: string }[] }, ctx: z.RefinementCtx): void {
  const agents = new Set(config.agents.map((agent) => agent.name));
  config.pollers.forEach((poller, index) => {
    if (!agents.has(poller.handler.agent)) ctx.addIssue({ code: 'custom', path: ['pollers', index, 'handler', 'agent'], message: `unknown agent "${poller.handler.agent}"` });
  });
  config.listeners.forEach((listener, index) =>
    listener.handlers.forEach((handler, handlerIndex) => {
      if (!agents.has(handler.agent)) ctx.addIssue({ code: 'custom', path: ['listeners', index, 'handlers', handlerIndex, 'agent'], message: `unknown agent "${handler.agent}"` });
    }),
  );
}

export type ListenerConfig = z.infer<typeof listenerSchema>;
export type ListenersConfig = z.infer<typeof listenersSchema>;
export type ListenerSource = ListenerConfig['source'];
