import {
  createTraceState,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOnSampler,
  InMemorySpanExporter,
  NodeTracerProvider,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-node';
import { afterAll, describe, expect, it } from 'vitest';
import { OtlpTraceEncoder } from '../../src/telemetry/sdk/otlp-trace-encoder.js';

/** The serializer OTel's protobuf exporter builds for itself: the reference the encoder must match byte for byte. */
const otel = (
  new OTLPTraceExporter() as unknown as {
    _delegate: { _serializer: { serializeRequest(spans: ReadableSpan[]): Uint8Array | undefined } };
  }
)._delegate._serializer;

function expectSameBytes(spans: ReadableSpan[], encoder = new OtlpTraceEncoder()): void {
  const expected = Buffer.from(otel.serializeRequest(spans) ?? []);
  const actual = Buffer.from(encoder.encode(spans));
  // On a mismatch, show where: the first differing byte and the bytes around it.
  let at = 0;
  while (at < expected.length && expected[at] === actual[at]) at++;
  const around = (bytes: Buffer) => bytes.subarray(Math.max(0, at - 8), at + 8).toString('hex');
  expect({ length: actual.length, at, bytes: around(actual) }).toEqual({
    length: expected.length,
    at: expected.length,
    bytes: around(expected),
  });
}

const memory = new InMemorySpanExporter();
const limits = { attributeCountLimit: 40, eventCountLimit: 3, linkCountLimit: 2, attributePerEventCountLimit: 2 };
const gateway = new NodeTracerProvider({
  resource: resourceFromAttributes({
    'service.name': 'agent-gateway',
    'service.version': '1.2.3',
    'host.name': 'hôte',
  }),
  sampler: new AlwaysOnSampler(),
  spanLimits: limits,
  spanProcessors: [new SimpleSpanProcessor(memory)],
});
// A second resource with a schema URL; OTel groups spans by resource, then by scope.
const other = new NodeTracerProvider({
  resource: resourceFromAttributes(
    { 'service.name': 'other', 'deployment.environment.name': 'test' },
    {
      schemaUrl: 'https://opentelemetry.io/schemas/1.30.0',
    },
  ),
  spanLimits: limits,
  spanProcessors: [new SimpleSpanProcessor(memory)],
});
afterAll(async () => {
  await Promise.all([gateway.shutdown(), other.shutdown()]);
});

const tracers = {
  plain: gateway.getTracer('agent-gateway'),
  versioned: gateway.getTracer('agent-gateway.llm', '2.0.0', { schemaUrl: 'https://example.com/schema' }),
  other: other.getTracer('other-scope', '0.1.0'),
};

const remoteParent = trace.setSpanContext(ROOT_CONTEXT, {
  traceId: '0af7651916cd43dd8448eb211c80319c',
  spanId: 'b7ad6b7169203331',
  traceFlags: TraceFlags.SAMPLED,
  isRemote: true,
  traceState: createTraceState('vendor=abc,other=1'),
});

/** Every attribute value type the SDK keeps, with the edges of int vs double and of lengths. */
const everyType: Attributes = {
  string: 'value',
  'string.empty': '',
  'string.non_ascii': 'héllo wörld ✓ 日本語 🚀',
  'string.lone_surrogate': 'a\ud800b', // written as U+FFFD by both
  'string.long': 'x'.repeat(200),
  'string.long_non_ascii': 'é'.repeat(9_000),
  'bool.true': true,
  'bool.false': false,
  'int.zero': 0,
  'int.small': 12,
  'int.negative': -5,
  'int.large': 2 ** 40 + 7,
  'int.beyond_safe': 2 ** 60,
  'int.min': -(2 ** 63),
  'int.negative_large': -(2 ** 50) - 3,
  'int.uint32_max': 0xffffffff,
  double: 0.2,
  'double.negative': -1.5e-7,
  'double.too_big_for_int64': 2 ** 63,
  'double.nan': NaN,
  'double.infinity': -Infinity,
  'array.strings': ['stop', 'length', 'ünïcode'],
  'array.empty': [],
  'array.numbers': [1, 2.5, -3, 2 ** 45],
  'array.bools': [true, false],
  'array.with_null': ['a', null, undefined, 'b'],
  'ключ.non_ascii_key': 'значение',
};

function span(
  tracer: keyof typeof tracers,
  name: string,
  options: {
    kind?: SpanKind;
    attributes?: Attributes;
    parent?: Context;
    links?: Parameters<typeof trace.getTracer>[];
  } = {},
) {
  return tracers[tracer].startSpan(
    name,
    { kind: options.kind, attributes: options.attributes },
    options.parent ?? ROOT_CONTEXT,
  );
}

function makeSpans(): ReadableSpan[] {
  memory.reset();
  // The gateway's chat completion: server, invoke_agent and chat spans, the server's parent remote.
  const server = span('plain', 'POST /v1/chat/completions', {
    kind: SpanKind.SERVER,
    parent: remoteParent,
    attributes: { 'http.request.method': 'POST', 'url.path': '/v1/chat/completions', 'client.address': '127.0.0.1' },
  });
  const run = tracers.plain.startSpan(
    'invoke_agent helper',
    { attributes: { 'gen_ai.agent.name': 'helper' } },
    trace.setSpan(ROOT_CONTEXT, server),
  );
  const chat = tracers.versioned.startSpan(
    'chat test-model',
    {
      kind: SpanKind.CLIENT,
      attributes: everyType,
      links: [
        { context: server.spanContext() },
        {
          context: {
            traceId: 'ABCDEF0123456789abcdef0123456789',
            spanId: '0123456789abcdef',
            traceFlags: TraceFlags.NONE,
            isRemote: true,
            traceState: createTraceState('k=v'),
          },
          attributes: { 'link.kind': 'follows_from', 'link.n': 3 },
        },
        { context: run.spanContext(), attributes: { dropped: 'over the link limit' } },
      ],
    },
    trace.setSpan(ROOT_CONTEXT, run),
  );
  chat.addEvent('first token', { 'gen_ai.ttft_ms': 3 });
  chat.addEvent('no attributes');
  chat.addEvent('too many attributes', { a: 1, b: 2, c: 3 }, [1_700_000_000, 123_456_789]);
  chat.addEvent('over the event limit');
  chat.setStatus({ code: SpanStatusCode.ERROR, message: 'upstream failed: délai dépassé' });
  chat.end();
  run.setStatus({ code: SpanStatusCode.OK });
  run.setAttributes(Object.fromEntries(Array.from({ length: 45 }, (_, i) => [`extra.${i}`, i]))); // over the limit
  run.end();
  server.setAttribute('http.response.status_code', 200);
  server.end();
  // Every kind, an unsampled-flag link, another resource, and spans of the scopes interleaved.
  for (const kind of [SpanKind.INTERNAL, SpanKind.PRODUCER, SpanKind.CONSUMER]) {
    span('other', `kind ${kind}`, { kind, attributes: { 'messaging.system': 'nats' } }).end();
    span('plain', `plain kind ${kind}`, { kind }).end();
  }
  // A span over 16 KiB (its length takes three bytes) and one with a 70 KB string (past the first buffer).
  span('versioned', 'big', { attributes: { payload: 'p'.repeat(20_000) } }).end();
  span('other', 'bigger', { attributes: { payload: 'q'.repeat(70_000), 'payload.unicode': '🚀'.repeat(5_000) } }).end();
  // A non-ASCII span name, and one of exactly 127 and 128 characters (the one-byte length's edge).
  span('plain', 'opération ✓').end();
  span('plain', 'n'.repeat(127)).end();
  span('plain', 'n'.repeat(128)).end();
  return memory.getFinishedSpans();
}

describe('OtlpTraceEncoder: the bytes of OTel ProtobufTraceSerializer', () => {
  const spans = makeSpans();

  it('covers what it claims to (several resources and scopes, events, links, dropped counts, remote parents)', () => {
    const chat = spans.find((s) => s.name === 'chat test-model')!;
    expect(new Set(spans.map((s) => s.resource)).size).toBe(2);
    expect(new Set(spans.map((s) => s.instrumentationScope)).size).toBe(3);
    expect(chat.links).toHaveLength(2);
    expect(chat.droppedLinksCount).toBe(1);
    expect(chat.droppedEventsCount).toBe(1);
    expect(chat.events.find((e) => e.name === 'too many attributes')?.droppedAttributesCount).toBe(1);
    expect(chat.spanContext().traceState?.serialize()).toBe('vendor=abc,other=1');
    expect(chat.attributes['array.with_null']).toEqual(['a', null, undefined, 'b']);
    expect(spans.find((s) => s.name === 'invoke_agent helper')!.droppedAttributesCount).toBeGreaterThan(0);
    expect(spans.find((s) => s.name === 'POST /v1/chat/completions')!.parentSpanContext?.isRemote).toBe(true);
  });

  it('encodes a batch of every kind of span as OTel does, byte for byte', () => {
    expectSameBytes(spans);
  });

  it('encodes each span alone and the batch reversed as OTel does', () => {
    for (const one of spans) expectSameBytes([one]);
    expectSameBytes([...spans].reverse());
  });

  it('encodes an empty batch as OTel does', () => {
    expectSameBytes([]);
  });

  it('gives the same bytes from a reused encoder (cached keys, resources and scopes) and from any first buffer size', () => {
    const encoder = new OtlpTraceEncoder();
    for (let i = 0; i < 3; i++) expectSameBytes(spans, encoder);
    // Small buffers grow at every point of the request.
    const small = spans.filter((s) => !['big', 'bigger'].includes(s.name));
    for (let size = 16; size < 400; size += 7) expectSameBytes(small, new OtlpTraceEncoder(size));
  });

  // Values the SDK's attribute checks keep out of spans but OTel's serializer still writes: mixed arrays,
  // maps (kvlist), bytes, undefined. Spans whose attributes are replaced, read through the real span.
  it('encodes mixed arrays, maps, bytes and undefined values as OTel does', () => {
    const base = spans[0];
    const attributes = {
      mixed: ['a', 1, 2.5, true, null, [1, 'nested']],
      map: { inner: 'v', 'nested.map': { deep: [1, 2] }, n: 7, nothing: null },
      bytes: new Uint8Array([0, 1, 2, 255]),
      missing: undefined,
    } as unknown as Attributes;
    const withOdd = Object.create(base, { attributes: { value: attributes } }) as ReadableSpan;
    expectSameBytes([withOdd, base]);
  });

  it('encodes the resource again once its async attributes have settled', async () => {
    // Ended spans taken as they end: the SDK's own processors wait for the resource to settle.
    const ended: ReadableSpan[] = [];
    const settling = new NodeTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'late', 'cloud.region': Promise.resolve('eu-west-1') }),
      spanProcessors: [
        {
          onStart() {},
          onEnd: (s: ReadableSpan) => ended.push(s),
          forceFlush: async () => {},
          shutdown: async () => {},
        },
      ],
    });
    const encoder = new OtlpTraceEncoder();
    settling.getTracer('t').startSpan('before').end();
    expect(ended[0].resource.asyncAttributesPending).toBe(true);
    expectSameBytes(ended, encoder);
    await ended[0].resource.waitForAsyncAttributes?.();
    expectSameBytes(ended, encoder);
    expect(Buffer.from(encoder.encode(ended)).includes('eu-west-1')).toBe(true);
    await settling.shutdown();
  });
});
