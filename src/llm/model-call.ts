import type { CallSignal } from './call-signal.js';
import type { ProviderEntry } from './create-provider-entry.js';
import { mapUpstreamError } from './map-upstream-error.js';
import type { RetrySettings, UpstreamFailure } from './retry-policy.js';
import type { ModelCallRequest } from './types.js';
import type { Logger } from '../logger.js';

/** Everything one model call needs, resolved before the first attempt. */
export interface ModelCall {
  entry: ProviderEntry;
  modelId: string;
  request: ModelCallRequest;
  label: string;
  retry: RetrySettings;
  logger?: Logger;
}

export function prepareModelCall(
  entry: ProviderEntry,
  modelId: string,
  request: ModelCallRequest,
  deps: { retry: RetrySettings; logger?: Logger },
): ModelCall {
  return {
    entry,
    modelId,
    request,
    label: `${entry.type} provider "${entry.name}" model "${modelId}"`,
    retry: deps.retry,
    logger: deps.logger,
  };
}

export function mapCallFailure(error: unknown, call: ModelCall, callSignal: CallSignal): UpstreamFailure {
  return mapUpstreamError(error, {
    label: call.label,
    secrets: call.entry.secrets,
    timedOut: callSignal.timedOut,
    timeoutMs: call.entry.timeoutMs,
    aborted: callSignal.callerAborted,
  });
}
