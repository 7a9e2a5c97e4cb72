import type { Registry } from 'prom-client';

/** One app's Prometheus registry, and how its `model` labels' providers map to the conventions' names. */
export interface PrometheusMetricSource {
  registry: Registry;
  /** The configured type of a provider (`openai`, `anthropic`, …); the name itself when unknown. */
  providerType(provider: string): string;
}

/** The started (or skipped) OpenTelemetry SDK, as app.ts holds it. */
export interface Telemetry {
  readonly enabled: boolean;
  /**
   * Exports the metrics of a Prometheus registry over OTLP (read when the metric reader collects), until
   * shutdown. Nothing when telemetry is off.
   */
  exportMetrics(source: PrometheusMetricSource): void;
  /** Exports every span and metric recorded so far (tests, shutdown). */
  flush(): Promise<void>;
  /** Flushes and unregisters the SDK; the API goes back to its no-op. */
  shutdown(): Promise<void>;
}
