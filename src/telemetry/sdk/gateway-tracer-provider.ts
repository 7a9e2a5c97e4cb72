import {
  context as contextApi,
  diag,
  INVALID_SPAN_CONTEXT,
  SpanKind,
  trace,
  TraceFlags,
  type Context,
  type Span,
  type SpanContext,
  type SpanOptions,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { getNumberFromEnv, isTracingSuppressed } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import {
  RandomIdGenerator,
  SamplingDecision,
  type IdGenerator,
  type Sampler,
  type SpanLimits,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { GatewaySpan } from './gateway-span.js';

export interface GatewayTracerProviderOptions {
  resource: Resource;
  sampler: Sampler;
  spanProcessor: SpanProcessor;
  idGenerator?: IdGenerator;
  /** Each limit not given here comes from the `OTEL_*_LIMIT` variables, then the SDK's default. */
  spanLimits?: SpanLimits;
}

/**
 * The SDK's `BasicTracerProvider` with the gateway's span class (gateway-span.ts): the same sampling, ids,
 * limits and processor calls, fewer objects per span.
 */
export class GatewayTracerProvider implements TracerProvider {
  private readonly tracers = new Map<string, GatewayTracer>();
  private readonly settings: TracerSettings;

  constructor(options: GatewayTracerProviderOptions) {
    this.settings = {
      resource: options.resource,
      sampler: options.sampler,
      processor: options.spanProcessor,
      idGenerator: options.idGenerator ?? new RandomIdGenerator(),
      limits: spanLimitsFromEnv(options.spanLimits),
    };
  }

  getTracer(name: string, version?: string, options?: { schemaUrl?: string }): Tracer {
    const key = `${name}@${version ?? ''}:${options?.schemaUrl ?? ''}`;
    let tracer = this.tracers.get(key);
    if (!tracer) {
      tracer = new GatewayTracer({ name, version, schemaUrl: options?.schemaUrl }, this.settings);
      this.tracers.set(key, tracer);
    }
    return tracer;
  }

  forceFlush(): Promise<void> {
    return this.settings.processor.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.settings.processor.shutdown();
  }
}

interface TracerSettings {
  resource: Resource;
  sampler: Sampler;
  processor: SpanProcessor;
  idGenerator: IdGenerator;
  limits: Required<SpanLimits>;
}

class GatewayTracer implements Tracer {
  constructor(
    private readonly scope: { name: string; version?: string; schemaUrl?: string },
    private readonly settings: TracerSettings,
  ) {}

  startSpan(name: string, options: SpanOptions = {}, context: Context = contextApi.active()): Span {
    if (options.root) context = trace.deleteSpan(context);
    if (isTracingSuppressed(context)) return trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
    const parent = trace.getSpan(context)?.spanContext();
    const validParent = parent && trace.isSpanContextValid(parent) ? parent : undefined;
    const spanId = this.settings.idGenerator.generateSpanId();
    const traceId = validParent?.traceId ?? this.settings.idGenerator.generateTraceId();
    const kind = options.kind ?? SpanKind.INTERNAL;
    const links = options.links ?? [];
    const sampling = this.settings.sampler.shouldSample(context, traceId, name, kind, options.attributes ?? {}, links);
    const spanContext: SpanContext = {
      traceId,
      spanId,
      traceFlags: sampling.decision === SamplingDecision.RECORD_AND_SAMPLED ? TraceFlags.SAMPLED : TraceFlags.NONE,
      traceState: sampling.traceState ?? validParent?.traceState,
    };
    // Not recorded: the context still travels (ids in logs, `traceparent` to the upstream), nothing is built.
    if (sampling.decision === SamplingDecision.NOT_RECORD) return trace.wrapSpanContext(spanContext);
    const span = new GatewaySpan({
      name,
      kind,
      spanContext,
      parentSpanContext: validParent,
      attributes: options.attributes,
      links: options.links,
      startTime: options.startTime,
      context,
      resource: this.settings.resource,
      scope: this.scope,
      limits: this.settings.limits,
      processor: this.settings.processor,
    });
    if (sampling.attributes) span.setAttributes(sampling.attributes);
    return span;
  }

  startActiveSpan<F extends (span: Span) => unknown>(name: string, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(name: string, options: SpanOptions, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    options: SpanOptions,
    context: Context,
    fn: F,
  ): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    ...args: [F] | [SpanOptions, F] | [SpanOptions, Context, F]
  ): ReturnType<F> {
    const fn = args[args.length - 1] as (span: Span) => ReturnType<F>;
    const options = args.length > 1 ? (args[0] as SpanOptions) : undefined;
    const parent = args.length > 2 ? (args[1] as Context) : contextApi.active();
    const span = this.startSpan(name, options, parent);
    return contextApi.with<[Span], (span: Span) => ReturnType<F>>(trace.setSpan(parent, span), fn, undefined, span);
  }
}

/** The SDK's precedence: given, then `OTEL_SPAN_*`, then the general `OTEL_ATTRIBUTE_*`, then 128 or unlimited. */
function spanLimitsFromEnv(given: SpanLimits = {}): Required<SpanLimits> {
  const limits = {
    attributeCountLimit:
      given.attributeCountLimit ??
      getNumberFromEnv('OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT') ??
      getNumberFromEnv('OTEL_ATTRIBUTE_COUNT_LIMIT') ??
      128,
    attributeValueLengthLimit:
      given.attributeValueLengthLimit ??
      getNumberFromEnv('OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT') ??
      getNumberFromEnv('OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT') ??
      Infinity,
    eventCountLimit: given.eventCountLimit ?? getNumberFromEnv('OTEL_SPAN_EVENT_COUNT_LIMIT') ?? 128,
    linkCountLimit: given.linkCountLimit ?? getNumberFromEnv('OTEL_SPAN_LINK_COUNT_LIMIT') ?? 128,
    attributePerEventCountLimit:
      given.attributePerEventCountLimit ?? getNumberFromEnv('OTEL_SPAN_ATTRIBUTE_PER_EVENT_COUNT_LIMIT') ?? 128,
    attributePerLinkCountLimit:
      given.attributePerLinkCountLimit ?? getNumberFromEnv('OTEL_SPAN_ATTRIBUTE_PER_LINK_COUNT_LIMIT') ?? 128,
  };
  if (limits.attributeValueLengthLimit <= 0) diag.warn('OTEL attribute value length limit must be positive');
  return limits;
}
