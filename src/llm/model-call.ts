import type { CallSignal } from './call-signal.js';
import type { ProviderEntry } from './create-provider-entry.js';
import { mapUpstreamError } from './map-upstream-error.js';
import type { RetrySettings, UpstreamFailure } from './retry-policy.js';
import type { StallWatch } from './routing/stall-watch.js';
import type { ModelCallRequest } from './types.js';
import type { Logger } from '../logger.js';

/** One provider and model a call may go to. */
export interface RouteTarget {
  /** `<provider>/<model id>` as configured. */
  ref: string;
  entry: ProviderEntry;
  modelId: string;
  /** `<type> provider "name" model "id"`: every message says which call failed. */
  label: string;
  /** Retries on this target before the call moves on (the provider's max_retries unless the target sets its own). */
  maxRetries: number;
}

/** Everything one model call needs, resolved before the first attempt. */
export interface ModelCall {
  request: ModelCallRequest;
  /** Tried in this order; the first is the primary. */
  targets: RouteTarget[];
  /** A bound on the whole call across its targets (a group's timeout_ms); each target has its own timeout_ms too. */
  budgetMs?: number;
  retry: RetrySettings;
  logger?: Logger;
}

/** The signals one attempt runs under: the call's budget, its target's deadline and its own stall watch. */
export interface AttemptSignals {
  budget?: CallSignal;
  target: CallSignal;
  stall: StallWatch;
}

export function createRouteTarget(
  ref: string,
  entry: ProviderEntry,
  modelId: string,
  maxRetries?: number,
): RouteTarget {
  return {
    ref,
    entry,
    modelId,
    label: `${entry.type} provider "${entry.name}" model "${modelId}"`,
    maxRetries: maxRetries ?? entry.maxRetries,
  };
}

export function mapCallFailure(
  error: unknown,
  call: ModelCall,
  target: RouteTarget,
  signals: AttemptSignals,
): UpstreamFailure {
  return mapUpstreamError(error, {
    label: target.label,
    secrets: target.entry.secrets,
    hosts: target.entry.hosts,
    stalledMs: signals.stall.stalledMs,
    timedOut: signals.target.timedOut,
    timeoutMs: target.entry.timeoutMs,
    budgetMs: signals.budget?.timedOut ? call.budgetMs : undefined,
    aborted: signals.target.callerAborted,
  });
}
