import type { Metrics } from '../http/index.js';
import type { UsageRecorder } from './usage-recorder.js';

/** Usage and risk records go to the analytics recorder (group commit) and are counted for /metrics on the way. */
export function meterUsage(
  recorder: Pick<UsageRecorder, 'record' | 'recordRisk'>,
  metrics: Pick<Metrics, 'observeUsage' | 'observeRisk'>,
): Pick<UsageRecorder, 'record' | 'recordRisk'> {
  return {
    record(usage) {
      metrics.observeUsage(usage);
      return recorder.record(usage);
    },
    recordRisk(event) {
      metrics.observeRisk(event);
      return recorder.recordRisk(event);
    },
  };
}
