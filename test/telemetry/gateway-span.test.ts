import {
  createTraceState,
  diag,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type Exception,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  InMemorySpanExporter,
  ParentBasedSampler,
  SimpleSpanProcessor,
  type IdGenerator,
  type ReadableSpan,
  type Sampler,
  type SpanLimits,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { GatewayTracerProvider } from '../../src/telemetry/sdk/gateway-tracer-provider.js';

// The gateway's span class must behave as the SDK's: every scenario runs against both, with the same ids, and
// what reaches the exporter is compared field by field.

/** The same ids on both sides, so spans, parents and links can be compared as they are. */
class CountingIds implements IdGenerator {
  private next = 0;
  generateTraceId = (): string => (++this.next).toString(16).padStart(32, '0');
  generateSpanId = (): string => (++this.next).toString(16).padStart(16, '0');
}

interface Side {
  provider: TracerProvider & { forceFlush(): Promise<void> };
  exporter: InMemorySpanExporter;
}

const resource = resourceFromAttributes({ 'service.name': 'agent-gateway' });

function sides(sampler: Sampler = new AlwaysOnSampler(), spanLimits?: SpanLimits): { sdk: Side; ours: Side } {
  const sdkExporter = new InMemorySpanExporter();
  const oursExporter = new InMemorySpanExporter();
  return {
    sdk: {
      exporter: sdkExporter,
      provider: new BasicTracerProvider({
        resource,
        sampler,
        spanLimits,
        idGenerator: new CountingIds(),
        spanProcessors: [new SimpleSpanProcessor(sdkExporter)],
      }),
    },
    ours: {
      exporter: oursExporter,
      provider: new GatewayTracerProvider({
        resource,
        sampler,
        spanLimits,
        idGenerator: new CountingIds(),
        spanProcessor: new SimpleSpanProcessor(oursExporter),
      }),
    },
  };
}

/** What an exporter reads of a span; times as given or as start ≤ end with the duration between them. */
function exported(span: ReadableSpan) {
  const nanos = ([seconds, nanoseconds]: [number, number]) => BigInt(seconds) * 1_000_000_000n + BigInt(nanoseconds);
  expect(nanos(span.endTime) - nanos(span.startTime)).toBe(nanos(span.duration));
  expect(nanos(span.duration) >= 0n).toBe(true);
  return {
    name: span.name,
    kind: span.kind,
    spanContext: span.spanContext(),
    parentSpanContext: span.parentSpanContext,
    attributes: span.attributes,
    droppedAttributesCount: span.droppedAttributesCount,
    events: span.events.map(({ name, attributes, droppedAttributesCount }) => ({
      name,
      attributes,
      droppedAttributesCount,
    })),
    droppedEventsCount: span.droppedEventsCount,
    links: span.links,
    droppedLinksCount: span.droppedLinksCount,
    status: span.status,
    ended: span.ended,
    resource: span.resource.attributes,
    instrumentationScope: span.instrumentationScope,
    times: { start: span.startTime, end: span.endTime, events: span.events.map((event) => event.time) },
  };
}

/** Measured times differ between two runs; only given ones can be compared. */
function withoutTimes(spans: ReturnType<typeof exported>[]) {
  return spans.map(({ times: _times, ...rest }) => rest);
}

/** Runs `scenario` on both sides; returns what each returned and exported. */
async function compare<T>(
  scenario: (tracer: Tracer) => T,
  options: { sampler?: Sampler; spanLimits?: SpanLimits } = {},
): Promise<{ sdk: ReturnType<typeof exported>[]; ours: ReturnType<typeof exported>[]; results: [T, T] }> {
  const { sdk, ours } = sides(options.sampler, options.spanLimits);
  // From one line, so that errors made in the scenario have the same stack on both sides.
  const results = [sdk, ours].map((side) => scenario(side.provider.getTracer('agent-gateway', '1.0.0'))) as [T, T];
  // (Not shutdown(): the in-memory exporter forgets its spans on shutdown.)
  await Promise.all([sdk.provider.forceFlush(), ours.provider.forceFlush()]);
  return {
    sdk: sdk.exporter.getFinishedSpans().map(exported),
    ours: ours.exporter.getFinishedSpans().map(exported),
    results,
  };
}

async function expectSameSpans(
  scenario: (tracer: Tracer) => unknown,
  options?: { sampler?: Sampler; spanLimits?: SpanLimits },
) {
  const { sdk, ours } = await compare(scenario, options);
  expect(withoutTimes(ours)).toEqual(withoutTimes(sdk));
  return ours;
}

// The SDK warns about invalid input through `diag`; silenced here, the outcome is what is compared.
diag.disable();

describe("the gateway's span class against the SDK's", () => {
  it('records a chat completion as the gateway does: start attributes, end attributes, a parent, an error', async () => {
    const spans = await expectSameSpans((tracer) => {
      const server = tracer.startSpan('POST /v1/chat/completions', {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': 'POST', 'url.path': '/v1/chat/completions', 'client.address': '::1' },
      });
      const chat = tracer.startSpan(
        'chat gpt-4o',
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'gen_ai.operation.name': 'chat',
            'gen_ai.request.temperature': 0.2,
            'gen_ai.request.max_tokens': 64,
          },
        },
        trace.setSpan(ROOT_CONTEXT, server),
      );
      const finishReasons = ['stop'];
      chat.setAttributes({
        'gen_ai.response.model': 'gpt-4o-2024',
        'gen_ai.response.finish_reasons': finishReasons,
        'gen_ai.usage.input_tokens': 12,
        'agent_gateway.usage.estimated': true,
      });
      finishReasons.push('changed by the caller afterwards');
      chat.addEvent('agent_gateway.guardrail', {
        'agent_gateway.guardrail.name': 'pii',
        'agent_gateway.guardrail.action': 'redact',
      });
      chat.recordException(Object.assign(new Error('upstream answered 502'), { code: 'upstream_error' }));
      chat.setStatus({ code: SpanStatusCode.ERROR, message: 'upstream answered 502' });
      chat.end();
      server.setAttribute('http.response.status_code', 502);
      server.end();
    });
    expect(spans.map((span) => span.name)).toEqual(['chat gpt-4o', 'POST /v1/chat/completions']);
    expect(spans[0]?.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
    expect(spans[0]?.events[1]?.attributes?.['exception.type']).toBe('upstream_error');
  });

  it('drops invalid and empty values at the start and later, and keeps copies of what it was given', async () => {
    const spans = await expectSameSpans((tracer) => {
      const given: Attributes = {
        kept: 'yes',
        absent: undefined,
        empty: null as unknown as string,
        object: { nested: true } as unknown as string,
        mixed: [1, 'two'] as unknown as string[],
        '': 'no key',
        holes: ['a', null, 'b'],
      };
      const span = tracer.startSpan('invalid', { attributes: given });
      given['added.after.start'] = 'not recorded';
      span.setAttribute('later.object', { a: 1 } as unknown as string);
      span.setAttribute('later.null', null as unknown as string);
      span.setAttribute('', 'empty key');
      span.setAttributes({ 'later.valid': 3, 'later.mixed': [true, 1] as unknown as boolean[] });
      span.addEvent('event', { good: 1, bad: { x: 1 } as unknown as string, nothing: null as unknown as string });
      span.addLink({ context: span.spanContext(), attributes: { good: 'a', bad: [{}] as unknown as string[] } });
      span.end();
      const list = ['a'];
      const valid: Attributes = { list, n: 1 };
      const copied = tracer.startSpan('valid, then changed by the caller', { attributes: valid });
      list.push('b');
      valid.n = 2;
      copied.end();
    });
    expect(Object.keys(spans[0]?.attributes ?? {}).sort()).toEqual(['holes', 'kept', 'later.valid']);
    expect(spans[1]?.attributes).toEqual({ list: ['a'], n: 1 });
  });

  it('applies the count and length limits to span, event and link attributes, events and links', async () => {
    const spans = await expectSameSpans(
      (tracer) => {
        const span = tracer.startSpan('limited', {
          attributes: { a: 'abcdefgh', b: ['abcdefgh', 'xy', 3] as unknown as string[], c: 1, d: 2, e: 3 },
          links: [
            {
              context: { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 },
              attributes: { l1: 'abcdefgh', l2: 1 },
            },
            { context: { traceId: 'c'.repeat(32), spanId: 'd'.repeat(16), traceFlags: 1 } },
          ],
        });
        span.setAttribute('a', 'replaced, still counted once');
        span.setAttribute('f', 'over the count');
        for (const name of ['first', 'second', 'third']) span.addEvent(name, { x: 'abcdefgh', y: 2 });
        span.addLinks([{ context: { traceId: 'e'.repeat(32), spanId: 'f'.repeat(16), traceFlags: 0 } }]);
        span.end();
        tracer.startSpan('valid', { attributes: { s: 'abcdefgh', list: ['abcdefgh', 'xy'] } }).end();
      },
      {
        spanLimits: {
          attributeCountLimit: 3,
          attributeValueLengthLimit: 4,
          eventCountLimit: 2,
          linkCountLimit: 2,
          attributePerEventCountLimit: 1,
          attributePerLinkCountLimit: 1,
        },
      },
    );
    // b (a mixed array) is invalid, not counted; e and f are over the count.
    expect(spans[0]).toMatchObject({ droppedAttributesCount: 2, droppedEventsCount: 1, droppedLinksCount: 1 });
    expect(Object.keys(spans[0]?.attributes ?? {})).toEqual(['a', 'c', 'd']);
    expect(spans[0]?.attributes.a).toBe('repl');
    expect(spans[1]?.attributes).toEqual({ s: 'abcd', list: ['abcd', 'xy'] });
  });

  it('takes the limits from the OTEL_* variables, the span ones before the general ones', async () => {
    process.env.OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT = '2';
    process.env.OTEL_ATTRIBUTE_COUNT_LIMIT = '5';
    process.env.OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT = '3';
    process.env.OTEL_SPAN_EVENT_COUNT_LIMIT = '1';
    try {
      const spans = await expectSameSpans((tracer) => {
        const span = tracer.startSpan('from env', { attributes: { one: 'abcdef', two: ['abcdef'], three: 3 } });
        span.addEvent('first');
        span.addEvent('second');
        span.end();
      });
      expect(spans[0]).toMatchObject({ attributes: { one: 'abc', two: ['abc'] }, droppedEventsCount: 1 });
    } finally {
      for (const name of [
        'OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT',
        'OTEL_ATTRIBUTE_COUNT_LIMIT',
        'OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT',
        'OTEL_SPAN_EVENT_COUNT_LIMIT',
      ])
        delete process.env[name];
    }
  });

  it('keeps OK final, ignores UNSET and a non-string message, and changes nothing once ended', async () => {
    const spans = await expectSameSpans((tracer) => {
      const ok = tracer.startSpan('ok first');
      ok.setStatus({ code: SpanStatusCode.OK });
      ok.setStatus({ code: SpanStatusCode.ERROR, message: 'too late' });
      ok.end();
      const error = tracer.startSpan('error');
      error.setStatus({ code: SpanStatusCode.ERROR, message: 42 as unknown as string });
      error.setStatus({ code: SpanStatusCode.UNSET });
      error.updateName('error, renamed');
      error.end();
      error.setAttribute('after.end', 1);
      error.addEvent('after end');
      error.addLink({ context: ok.spanContext() });
      error.setStatus({ code: SpanStatusCode.OK });
      error.updateName('after end');
      error.recordException(new Error('after end'));
      error.end();
      expect(error.isRecording()).toBe(false);
    });
    expect(spans.map(({ name, status }) => ({ name, status }))).toEqual([
      { name: 'ok first', status: { code: SpanStatusCode.OK } },
      { name: 'error, renamed', status: { code: SpanStatusCode.ERROR } },
    ]);
  });

  it('records exceptions given as errors, codes, strings, and skips those with nothing to say', async () => {
    const spans = await expectSameSpans((tracer) => {
      const span = tracer.startSpan('exceptions');
      span.recordException(new TypeError('bad type'));
      span.recordException({ code: 429, message: 'slow down' });
      span.recordException('a plain message');
      span.recordException({} as Exception);
      span.end();
    });
    expect(spans[0]?.events.map((event) => event.attributes?.['exception.type'] ?? null)).toEqual([
      'TypeError',
      '429',
      null,
    ]);
    expect(spans[0]?.events[0]?.attributes?.['exception.stacktrace']).toContain('bad type');
  });

  it('takes start, event and end times as dates, epoch or performance milliseconds and HrTime', async () => {
    const start = new Date('2020-01-01T08:00:00.000Z');
    const { sdk, ours } = await compare((tracer) => {
      const dated = tracer.startSpan('dated', { startTime: start });
      dated.addEvent('at epoch ms', start.getTime() + 5);
      dated.addEvent('at hrtime', {}, [start.getTime() / 1000 + 1, 7]);
      dated.addEvent('now: a span with a given start has no measured clock');
      dated.end(start.getTime() + 2_000);
      const backwards = tracer.startSpan('ends before it starts', { startTime: [start.getTime() / 1000, 500] });
      backwards.end(start);
      const measured = tracer.startSpan('measured');
      measured.addEvent('performance ms', performance.now());
      measured.end();
    });
    expect(withoutTimes(ours)).toEqual(withoutTimes(sdk));
    // The given times exactly; the measured span's only through exported()'s start <= end = start + duration.
    const givenTimes = (span: ReturnType<typeof exported>) => ({
      ...span.times,
      events: span.times.events.slice(0, 2),
    });
    expect(ours.slice(0, 2).map(givenTimes)).toEqual(sdk.slice(0, 2).map(givenTimes));
    expect(ours[0]?.times.events[2]?.[0]).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(ours[0]?.times.start).toEqual([start.getTime() / 1000, 0]);
    expect(ours[1]?.times.end).toEqual(ours[1]?.times.start);
  });
});

describe("the gateway's tracer against the SDK's", () => {
  it('continues a sampled remote parent with its trace state, and starts a new trace when asked for a root', async () => {
    const remote = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
      traceState: createTraceState('vendor=abc'),
    });
    const spans = await expectSameSpans(
      (tracer) => {
        tracer.startSpan('child of remote', {}, remote).end();
        tracer
          .startSpan('root despite parent', { root: true, links: [{ context: trace.getSpanContext(remote)! }] }, remote)
          .end();
      },
      { sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }) },
    );
    expect(spans[0]?.spanContext).toMatchObject({ traceId: '0af7651916cd43dd8448eb211c80319c' });
    expect(spans[0]?.spanContext.traceState?.serialize()).toBe('vendor=abc');
    expect(spans[1]?.parentSpanContext).toBeUndefined();
  });

  it('hands out non-recording spans that still carry the context when not sampled, and an invalid one when suppressed', async () => {
    const { sdk, ours, results } = await compare(
      (tracer) => {
        const unsampled = tracer.startSpan('not sampled');
        unsampled.setAttribute('ignored', 1);
        unsampled.end();
        const suppressed = tracer.startSpan('suppressed', {}, suppressTracing(ROOT_CONTEXT));
        return [unsampled, suppressed].map((span) => ({ recording: span.isRecording(), context: span.spanContext() }));
      },
      { sampler: new AlwaysOffSampler() },
    );
    expect(ours).toEqual([]);
    expect(sdk).toEqual([]);
    expect(results[1]).toEqual(results[0]);
    expect(results[1][0]).toMatchObject({ recording: false, context: { traceFlags: TraceFlags.NONE } });
    expect(results[1][1]?.context.traceId).toBe('0'.repeat(32));
  });

  it('runs startActiveSpan with the span active in the given context', async () => {
    const { sdk, ours, results } = await compare((tracer) =>
      tracer.startActiveSpan('active', { attributes: { a: 1 } }, ROOT_CONTEXT, (span) => {
        span.end();
        return span.spanContext().spanId;
      }),
    );
    expect(withoutTimes(ours)).toEqual(withoutTimes(sdk));
    expect(results[1]).toEqual(results[0]);
    expect(ours[0]?.attributes).toEqual({ a: 1 });
  });
});
