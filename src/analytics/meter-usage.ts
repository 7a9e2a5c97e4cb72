import type { Metrics } from '../http/index.js';
import { addGuardrailEvent } from '../telemetry/index.js';
import type { UsageRecorder } from './usage-recorder.js';

/**
 * Usage and risk records go to the analytics recorder (group commit) and are counted for /metrics (and
 * OpenTelemetry) on the way; a guardrail hit is also an event on the current span.
 */
export function meterUsage(
  recorder: Pick<UsageRecorder, 'record' | 'recordRisk'>,
  metrics: Pick<Metrics, 'observeUsage' | 'observeRisk'>,
  providerType: (provider: string) => string,
): Pick<UsageRecorder, 'record' | 'recordRisk'> {
  return {
    record(usage) {
      const provider = usage.provider ?? 'unknown';
      metrics.observeUsage({
        ...usage,
        ttft_ms: usage.ttft_ms ?? null,
        provider,
        provider_type: providerType(provider),
      });
      return recorder.record(usage);
    },
    recordRisk(event) {
      metrics.observeRisk(event);
      addGuardrailEvent(event);
      return recorder.recordRisk(event);
    },
  };
}
