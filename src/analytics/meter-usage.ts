import type { Metrics } from '../http/index.js';
import type { UsageRecorder } from './usage-recorder.js';

/**
 * Usage and risk records go to the analytics recorder (group commit) and are counted for /metrics (and
 * OpenTelemetry) on the way (the run reporter adds a guardrail hit to its span).
 */
export function meterUsage(
  recorder: Pick<UsageRecorder, 'record' | 'recordRisk'>,
  metrics: Pick<Metrics, 'observeUsage' | 'observeRisk'>,
  providerType: (provider: string) => string,
  /** The tokens-per-minute limits count each model call's tokens. */
  countTokens: (agentName: string, tokens: number) => Promise<void> = async () => undefined,
): Pick<UsageRecorder, 'record' | 'recordRisk'> {
  return {
    async record(usage) {
      const provider = usage.provider ?? 'unknown';
      // Object.assign, not a spread: V8 gives every `{ ...usage, … }` a map of its own.
      metrics.observeUsage(
        Object.assign({}, usage, { ttft_ms: usage.ttft_ms ?? null, provider, provider_type: providerType(provider) }),
      );
      await Promise.all([
        recorder.record(usage),
        countTokens(usage.agent_name, usage.input_tokens + usage.output_tokens),
      ]);
    },
    recordRisk(event) {
      metrics.observeRisk(event);
      return recorder.recordRisk(event);
    },
  };
}
