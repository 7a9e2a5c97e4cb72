import { createMetrics, healthRoutes, registerLifecycle, registerMetrics, type Metrics } from '../http/index.js';
import type { Telemetry } from '../telemetry/index.js';
import { providerTypeOf, type AppContext } from './app-context.js';

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
    providerType: providerTypeOf(ctx.config),
  });
  return metrics;
}

/**
 * GET /metrics with the request counters, and the health and readiness probes. After the auth hooks, so /metrics
 * needs operator credentials.
 */
export async function registerProbes({ server, database }: AppContext, metrics: Metrics): Promise<void> {
  registerMetrics(server, metrics);
  await server.register(healthRoutes, {
    readiness: async () => ((await database.ping()) ? [] : [`database (${database.engine}) unreachable`]),
  });
}
