import { TraceFlags, type Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-node';
import type { EncodedSpan, OtlpTraceEncoder } from './otlp-trace-encoder.js';

const SAMPLED = { traceFlags: TraceFlags.SAMPLED };

class QueuedSpan implements EncodedSpan {
  constructor(
    readonly encoded: Uint8Array,
    readonly resource: ReadableSpan['resource'],
    readonly instrumentationScope: ReadableSpan['instrumentationScope'],
  ) {}

  spanContext(): typeof SAMPLED {
    return SAMPLED;
  }
}

/**
 * In front of OTel's BatchSpanProcessor (its batching, queue limit, drops, timer, flush and shutdown kept):
 * each sampled span is encoded as it ends and the batch queues these bytes in its place. A batch of 512 at
 * c=32 fills in about 170 requests, during which V8's young-generation collections run two or three times:
 * queued span objects (the span, its attributes, ids, times) were copied and then promoted by each, ≈ 8.6 KiB
 * per request of what scavenges move (bench/README.md, 2026-11-25). The bytes live outside V8's heap.
 * Used only when our encoder is the exporter's serializer (telemetry-sdk.ts), which reads these stand-ins.
 */
export class EncodedSpanProcessor implements SpanProcessor {
  constructor(
    private readonly batch: SpanProcessor,
    private readonly encoder: OtlpTraceEncoder,
  ) {}

  onStart(span: Span, parentContext: Context): void {
    this.batch.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    if ((span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    const queued = new QueuedSpan(this.encoder.encodeSpan(span), span.resource, span.instrumentationScope);
    // The batch processor reads only the sampled flag and the resource; the serializer reads the rest.
    this.batch.onEnd(queued as unknown as ReadableSpan);
  }

  forceFlush(): Promise<void> {
    return this.batch.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.batch.shutdown();
  }
}
