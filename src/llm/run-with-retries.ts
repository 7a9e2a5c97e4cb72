import { UpstreamError } from '../errors.js';
import { createCallSignal, type CallSignal } from './call-signal.js';
import { mapCallFailure, type AttemptSignals, type ModelCall, type RouteTarget } from './model-call.js';
import { sleep } from '../sleep.js';
import { decideNextStep, type NextStep, type UpstreamFailure } from './retry-policy.js';
import { createStallWatch, type StallWatch } from './routing/stall-watch.js';
import type { ModelAttempt } from './types.js';

/** The attempt that opened: its value, its target and the signals the rest of the call runs under. */
export interface OpenedAttempt<T> {
  value: T;
  target: RouteTarget;
  signals: AttemptSignals;
  /** When this attempt started (performance.now()). */
  startedMs: number;
}

/**
 * Runs `attempt` on the call's targets in order, each retried with backoff while its retries last, until one
 * succeeds or a failure must not move on (docs/operations.md); throws UpstreamError. Streams pass only their
 * opening (up to the first part) as the attempt, so nothing is retried or moved after a part was yielded.
 * The returned signals are the caller's to dispose.
 */
export async function runWithRetries<T>(
  call: ModelCall,
  budget: CallSignal | undefined,
  attempt: (target: RouteTarget, stall: StallWatch) => PromiseLike<T>,
): Promise<OpenedAttempt<T>> {
  const failures: { target: RouteTarget; failure: UpstreamFailure }[] = [];
  const parent = budget?.signal ?? call.request.signal;
  for (const [index, target] of call.targets.entries()) {
    const hasNext = index < call.targets.length - 1;
    // The target's timeout_ms bounds all its attempts, as it bounds a single provider's call.
    const targetSignal = createCallSignal(target.entry.timeoutMs, parent);
    for (let retry = 0; ; retry += 1) {
      const signals: AttemptSignals = {
        budget,
        target: targetSignal,
        stall: createStallWatch(target.entry.stallTimeoutMs, targetSignal.signal),
      };
      const startedMs = performance.now();
      try {
        return { value: await attempt(target, signals.stall), target, signals, startedMs };
      } catch (error) {
        signals.stall.dispose();
        const failure = mapCallFailure(error, call, target, signals);
        const remainingMs = Math.min(targetSignal.remainingMs(), budget?.remainingMs() ?? Infinity);
        const next = decideNextStep(failure, {
          attempt: retry,
          maxRetries: target.maxRetries,
          remainingMs,
          settings: call.retry,
          hasNext,
        });
        reportAttempt(call, target, { failure, next, retry, latencyMs: performance.now() - startedMs });
        if (next.kind !== 'retry') {
          targetSignal.dispose();
          failures.push({ target, failure });
          if (next.kind === 'next') break;
          throw failures.length > 1 ? allTargetsFailed(failures) : failure.error;
        }
        try {
          await sleep(next.delayMs, targetSignal.signal);
        } catch (abortReason) {
          targetSignal.dispose();
          throw mapCallFailure(abortReason, call, target, signals).error;
        }
      }
    }
  }
  // decideNextStep never moves on from the last target.
  throw allTargetsFailed(failures);
}

/** The attempt as a warning in the run's log and a line of the step's prompt log. */
function reportAttempt(
  call: ModelCall,
  target: RouteTarget,
  { failure, next, retry, latencyMs }: { failure: UpstreamFailure; next: NextStep; retry: number; latencyMs: number },
): void {
  const attempt: ModelAttempt = {
    model: target.ref,
    status: 'failed',
    latencyMs: Math.round(latencyMs),
    reason: failure.reason,
    ...(failure.error.upstreamStatus !== undefined && { upstreamStatus: failure.error.upstreamStatus }),
    next: next.kind === 'retry' ? 'retry' : next.kind === 'next' ? 'fallback' : 'none',
    message: failure.error.message,
  };
  call.request.onAttempt?.(attempt);
  const fields = {
    provider: target.entry.name,
    model: target.modelId,
    upstreamStatus: failure.error.upstreamStatus,
    failure: failure.reason,
    // With the addresses the caller's message leaves out (issue #41).
    reason: failure.detail ?? failure.error.message,
  };
  const log = call.request.log ?? call.logger;
  if (next.kind === 'stop') {
    // A call the caller aborted is no failure to look into.
    if (failure.reason !== 'aborted') log?.warn(fields, 'model call failed');
    return;
  }
  log?.warn(
    { ...fields, ...(next.kind === 'retry' && { retry: retry + 1, delayMs: Math.round(next.delayMs) }) },
    next.kind === 'retry' ? 'retrying model call' : 'model call moves to its next target',
  );
}

/** One error naming every target and why it failed; status and Retry-After are the last target's. */
function allTargetsFailed(failures: { target: RouteTarget; failure: UpstreamFailure }[]): UpstreamError {
  const last = failures.at(-1)!.failure.error;
  return new UpstreamError({
    code: last.code === 'upstream_rate_limited' ? 'upstream_rate_limited' : undefined,
    message: `all ${failures.length} model targets failed: ${failures.map(({ failure }) => failure.error.message).join('; ')}`,
    retryable: last.retryable,
    upstreamStatus: last.upstreamStatus,
    retryAfterSeconds: last.retryAfterSeconds,
    timeout: last.code === 'upstream_timeout',
    cause: last,
  });
}
