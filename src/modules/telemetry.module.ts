import { createMetrics, registerLifecycle, registerMetrics, type Metrics } from '../http/index.js';
import type { Telemetry } from '../telemetry/index.js';
import type { AppContext } from './app-context.js';

/** OpenTelemetry, registered first so that it shuts down last, once every feature that records has stopped. */
export function registerTelemetry(server: AppContext['server'], telemetry: Telemetry): void {
  registerLifecycle(server, { close: () => telemetry.shutdown() });
}

/**
 * The Prometheus registry, which OTLP exports as well when telemetry is on (one recording per observation). Its
 * gauges read the features once they are built (`metrics.track`).
 */
export function createAppMetrics(ctx: AppContext, telemetry: Telemetry, agentNames: string[]): Metrics {
  const metrics = createMetrics({ agentNames });
  telemetry.exportMetrics({
    registry: metrics.registry,
    providerType: (provider) => ctx.config.providers[provider]?.type ?? provider,
  });
  return metrics;
}

/** GET /metrics and the request counters; after the auth hooks, so the route needs operator credentials. */
export function registerMetricsRoute(ctx: AppContext, metrics: Metrics): void {
  registerMetrics(ctx.server, metrics);
}
