import type { TelemetryConfig } from '../config/index.js';
import type { Telemetry } from './telemetry.types.js';

const DISABLED: Telemetry = {
  enabled: false,
  exportMetrics: () => undefined,
  flush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
};

/**
 * Starts the OpenTelemetry SDK when `telemetry.enabled`. Off, nothing of the SDK is even loaded: the API's
 * default no-op tracer and meter answer every call the gateway makes.
 */
export async function startTelemetry(config: TelemetryConfig, version: string): Promise<Telemetry> {
  if (!config.enabled) return DISABLED;
  const { startSdk } = await import('./sdk/index.js');
  return startSdk(config, version);
}
