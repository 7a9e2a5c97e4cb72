/** The W3C trace-context headers a producer may set on a message (AMQP headers, NATS headers, MQTT 5 user properties). */
const TRACE_HEADERS = ['traceparent', 'tracestate'] as const;

/** Picks `traceparent` and `tracestate` out of a message's headers; undefined when it has none. */
export function readTraceCarrier(read: (name: string) => unknown): Record<string, string> | undefined {
  let carrier: Record<string, string> | undefined;
  for (const name of TRACE_HEADERS) {
    const raw = read(name);
    // A header may arrive as bytes (AMQP) or repeated (MQTT user properties): the first value counts.
    const value = Array.isArray(raw) ? (raw as unknown[])[0] : raw;
    const text = Buffer.isBuffer(value) ? value.toString('utf8') : typeof value === 'string' ? value : undefined;
    if (text) (carrier ??= {})[name] = text;
  }
  return carrier;
}
