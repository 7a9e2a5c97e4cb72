import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter as OTLPJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OTLPProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
} from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { TelemetryConfig, TelemetrySampler } from '../../config/index.js';
import { PrometheusMetricProducer } from './prometheus-metric-producer.js';
import type { Telemetry } from '../telemetry.types.js';
import { resetTracer, telemetrySettings } from '../tracer.js';

const DEFAULT_ENDPOINT = 'http://localhost:4318';
const SHUTDOWN_TIMEOUT_MS = 2_000;

interface Sdk {
  tracerProvider: NodeTracerProvider;
  meterProvider: MeterProvider;
  metricProducer: PrometheusMetricProducer;
  users: number;
}

// The API's providers are process-wide: a second app in the same process (tests) shares the first one's SDK.
let shared: Sdk | undefined;

/** Registers a tracer and a meter provider exporting over OTLP/HTTP. Loaded only when telemetry is on. */
export function startSdk(config: TelemetryConfig, version: string): Telemetry {
  const sdk = (shared ??= createSdk(config, version));
  sdk.users += 1;
  Object.assign(telemetrySettings, { enabled: true, captureContent: config.capture_content });
  resetTracer();
  let stopped = false;
  const removeSources: (() => void)[] = [];
  return {
    enabled: true,
    exportMetrics(source) {
      if (!stopped) removeSources.push(sdk.metricProducer.add(source));
    },
    async flush() {
      await Promise.all([sdk.tracerProvider.forceFlush(), sdk.meterProvider.forceFlush()]);
    },
    async shutdown() {
      if (stopped) return;
      stopped = true;
      for (const remove of removeSources) remove();
      sdk.users -= 1;
      if (sdk.users > 0) return;
      shared = undefined;
      // An unreachable collector must not hold the process past its drain deadline (SIGTERM: exit within 10 s).
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([sdk.tracerProvider.shutdown(), sdk.meterProvider.shutdown()]),
        new Promise((resolve) => (timer = setTimeout(resolve, SHUTDOWN_TIMEOUT_MS).unref())),
      ]);
      clearTimeout(timer);
      trace.disable();
      metrics.disable();
      propagation.disable();
      context.disable();
      Object.assign(telemetrySettings, { enabled: false, captureContent: false });
      resetTracer();
    },
  };
}

function createSdk(config: TelemetryConfig, version: string): Sdk {
  const endpoint = (config.endpoint ?? DEFAULT_ENDPOINT).replace(/\/+$/, '');
  const resource = resourceFromAttributes({
    [ATTR_SERVICE_NAME]: config.service_name,
    [ATTR_SERVICE_VERSION]: version,
  });
  const tracerProvider = new NodeTracerProvider({
    resource,
    sampler: createSampler(config.sampler, config.sampler_arg),
    spanProcessors: [new BatchSpanProcessor(createTraceExporter(config, `${endpoint}/v1/traces`))],
  });
  // The global tracer provider and the W3C trace context + baggage propagator, but no context manager: the
  // gateway starts every span itself and hands the parent on explicitly (docs/decisions/0065-explicit-trace-context.md). The default one,
  // AsyncLocalStorage, turns on a promise hook that runs for every promise of the process (hundreds per request).
  tracerProvider.register({ contextManager: null });
  // The gateway's own metrics come from the Prometheus registries (recorded once per observation); the
  // meter provider stays global for libraries that record through the API.
  const metricProducer = new PrometheusMetricProducer(resource);
  const meterProvider = new MeterProvider({
    resource,
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter({ url: `${endpoint}/v1/metrics`, headers: config.headers }),
        exportIntervalMillis: config.export_interval_ms,
        exportTimeoutMillis: Math.min(30_000, config.export_interval_ms),
        metricProducers: [metricProducer],
      }),
    ],
  });
  metrics.setGlobalMeterProvider(meterProvider);
  return { tracerProvider, meterProvider, metricProducer, users: 0 };
}

function createTraceExporter(config: TelemetryConfig, url: string) {
  const options = { url, headers: config.headers };
  if (config.protocol !== 'http/protobuf') return new OTLPJsonTraceExporter(options);
  return new OTLPProtoTraceExporter(options);
}

function createSampler(name: TelemetrySampler, ratio: number): Sampler {
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
    default: {
      const exhaustive: never = name;
      throw new Error(`unknown sampler ${String(exhaustive)}`);
    }
  }
}
