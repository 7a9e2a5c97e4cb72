import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  InMemorySpanExporter,
  NodeTracerProvider,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { afterEach, describe, expect, it } from 'vitest';
import { EncodedSpanProcessor } from '../../src/telemetry/sdk/encoded-span-processor.js';
import { OtlpTraceEncoder } from '../../src/telemetry/sdk/otlp-trace-encoder.js';
import { decodeTraceRequest } from './otlp-protobuf.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** OTel's own protobuf serializer: the reference for the request bytes. */
const otel = (
  new OTLPTraceExporter() as unknown as {
    _delegate: { _serializer: { serializeRequest(spans: ReadableSpan[]): Uint8Array | undefined } };
  }
)._delegate._serializer;

/** An exporter that keeps each batch's request body, written by `encoder` as the gateway's exporter does. */
function capturingExporter(encoder: OtlpTraceEncoder): SpanExporter & { bodies: Buffer[] } {
  const bodies: Buffer[] = [];
  return {
    bodies,
    export(items, done) {
      bodies.push(Buffer.from(encoder.encode(items)));
      done({ code: 0 });
    },
    shutdown: () => Promise.resolve(),
  };
}

const providers: NodeTracerProvider[] = [];
afterEach(async () => {
  await Promise.all(providers.splice(0).map((provider) => provider.shutdown()));
});

function provider(...spanProcessors: SpanProcessor[]): NodeTracerProvider {
  const created = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'agent-gateway' }),
    spanProcessors,
  });
  providers.push(created);
  return created;
}

/** Ends `count` spans with a few attributes; WeakRefs to them, so a test can see whether anything keeps them. */
function endSpans(tracerProvider: NodeTracerProvider, count: number): WeakRef<object>[] {
  const tracer = tracerProvider.getTracer('agent-gateway');
  const refs: WeakRef<object>[] = [];
  for (let i = 0; i < count; i++) {
    const span = tracer.startSpan(`chat model-${i}`, { attributes: { 'gen_ai.request.model': `model-${i}` } });
    span.setAttribute('gen_ai.usage.output_tokens', i);
    span.end();
    refs.push(new WeakRef(span));
  }
  return refs;
}

async function collectGarbage(): Promise<void> {
  // A WeakRef's target stays alive until the job that made it ends.
  await new Promise((resolve) => setImmediate(resolve));
  gc();
}

describe('EncodedSpanProcessor: spans queued for export as their bytes', () => {
  it('exports the same request bytes as OTel serializing the spans themselves', async () => {
    const memory = new InMemorySpanExporter();
    const encoder = new OtlpTraceEncoder();
    const exporter = capturingExporter(encoder);
    const tracerProvider = provider(
      new SimpleSpanProcessor(memory),
      new EncodedSpanProcessor(new BatchSpanProcessor(exporter), encoder),
    );
    endSpans(tracerProvider, 30);
    await tracerProvider.forceFlush();
    expect(exporter.bodies).toHaveLength(1);
    expect(exporter.bodies[0].equals(Buffer.from(otel.serializeRequest(memory.getFinishedSpans()) ?? []))).toBe(true);
  });

  it('keeps no span object alive while its batch waits to fill', async () => {
    const encoder = new OtlpTraceEncoder();
    const exporter = capturingExporter(encoder);
    const tracerProvider = provider(new EncodedSpanProcessor(new BatchSpanProcessor(exporter), encoder));
    const refs = endSpans(tracerProvider, 100);
    await collectGarbage();
    expect(exporter.bodies).toHaveLength(0);
    expect(refs.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
    await tracerProvider.forceFlush();
    const [body] = exporter.bodies;
    const names = decodeTraceRequest(body).resourceSpans[0].scopeSpans[0].spans.map((span) => span.name);
    expect(names).toEqual(Array.from({ length: 100 }, (_, i) => `chat model-${i}`));
  });

  it('(the control) OTel’s batch processor alone holds its queued spans', async () => {
    const tracerProvider = provider(new BatchSpanProcessor(capturingExporter(new OtlpTraceEncoder())));
    const refs = endSpans(tracerProvider, 100);
    await collectGarbage();
    expect(refs.filter((ref) => ref.deref() !== undefined)).toHaveLength(100);
  });

  it('drops unsampled spans before encoding them', async () => {
    const encoder = new OtlpTraceEncoder();
    const exporter = capturingExporter(encoder);
    const tracerProvider = new NodeTracerProvider({
      sampler: { shouldSample: () => ({ decision: 0 }), toString: () => 'never' },
      spanProcessors: [new EncodedSpanProcessor(new BatchSpanProcessor(exporter), encoder)],
    });
    providers.push(tracerProvider);
    endSpans(tracerProvider, 5);
    await tracerProvider.forceFlush();
    expect(exporter.bodies).toHaveLength(0);
  });
});
