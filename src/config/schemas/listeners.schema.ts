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
    durable: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, 'durable is letters, digits, _ or -')
      .optional(),
    /** Core NATS queue group shared by every replica, so each message reaches one of them; `agent-gateway-<listener name>` by default. */
    queue: z.string().min(1).optional(),
  }),
  z.strictObject({
    ...common,
    source: z.literal('mqtt'),
    url: url(/^(mqtts?|wss?)$/, 'an mqtt://, mqtts://, ws:// or wss://'),
    /** Subscribed with QoS 1; MQTT wildcards (+, #) allowed. */
    topic: z.string().min(1),
    /** The MQTT 5 shared subscription group (`$share/<group>/<topic>`), so each message reaches one replica; false subscribes every replica to every message. */
    shared_group: z
      .union([z.string().regex(/^[^/+#]+$/, 'shared_group may not contain /, + or #'), z.literal(false)])
      .optional(),
    /** Prefix of the client id; the replica id is appended, since two clients with one id take each other's session. */
    client_id: z.string().min(1).max(128).optional(),
    /** How long the broker keeps a disconnected replica's session (and queues its messages). */
    session_expiry_seconds: z.number().int().min(0).max(4_294_967_295).default(3600),
    username: z.string().optional(),
    password: z.string().optional(),
  }),
  z.strictObject({
    ...common,
    source: z.literal('redis-stream'),
    url: url(/^rediss?$/, 'a redis:// or rediss://'),
    /** A Redis stream read through a consumer group: each entry reaches one replica and is acknowledged (XACK) once stored. */
    stream: z.string().min(1),
    /** The consumer group, created at the end of the stream if missing; `agent-gateway-<listener name>` by default. */
    group: z.string().min(1).optional(),
    /** The entry field holding the JSON message; without it, the entry's fields themselves are the message. */
    field: z.string().min(1).optional(),
    /** Entries a consumer read but did not acknowledge for this long (a dead replica's) are claimed by another. */
    claim_idle_seconds: z.number().positive().max(86_400).default(60),
    /** Entries read per XREADGROUP. */
    batch: z.number().int().min(1).max(1000).default(16),
  }),
  z.strictObject({
    ...common,
    source: z.literal('sse'),
    url: url(/^https?$/, 'an http(s)'),
    headers: z.record(z.string(), z.string()).default({}),
    /** A stream with no bytes (events or comments) for this long is dropped and reopened with Last-Event-ID. */
    idle_timeout_seconds: z.number().positive().max(86_400).default(60),
    /** One replica reads the stream, holding a lease in the shared database this long; renewed at a third of it. */
    lease_seconds: z.number().min(0.3).max(3600).default(30),
  }),
]);

export const listenersSchema = z
  .array(listenerSchema)
  .default([])
  .superRefine((listeners, ctx) => {
    const seen = new Set<string>();
    listeners.forEach((listener, index) => {
      if (seen.has(listener.name))
        ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `duplicate listener name "${listener.name}"` });
      seen.add(listener.name);
      if (listener.source === 'redis' && (listener.channel === undefined) === (listener.pattern === undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'channel'],
          message: 'give exactly one of "channel" or "pattern"',
        });
      }
    });
  });

/** Poller and listener handlers must name configured agents; called from the whole config's superRefine. */
export function checkTriggerAgents(
  config: { pollers: PollersConfig; listeners: ListenersConfig; agents: { name: string }[] },
  ctx: z.RefinementCtx,
): void {
  const agents = new Set(config.agents.map((agent) => agent.name));
  config.pollers.forEach((poller, index) => {
    if (!agents.has(poller.handler.agent))
      ctx.addIssue({
        code: 'custom',
        path: ['pollers', index, 'handler', 'agent'],
        message: `unknown agent "${poller.handler.agent}"`,
      });
  });
  config.listeners.forEach((listener, index) =>
    listener.handlers.forEach((handler, handlerIndex) => {
      if (!agents.has(handler.agent))
        ctx.addIssue({
          code: 'custom',
          path: ['listeners', index, 'handlers', handlerIndex, 'agent'],
          message: `unknown agent "${handler.agent}"`,
        });
    }),
  );
}

export type ListenerConfig = z.infer<typeof listenerSchema>;
export type ListenersConfig = z.infer<typeof listenersSchema>;
export type ListenerSource = ListenerConfig['source'];
