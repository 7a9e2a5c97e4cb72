import type { CallSignal } from './call-signal.js';
import { mapCallFailure, type ModelCall } from './model-call.js';
import { sleep } from '../sleep.js';
import { retryDelayMs } from './retry-policy.js';

/**
 * Runs `attempt` until it succeeds or fails in a way that must not be retried; throws UpstreamError.
 * Streams pass only their opening (up to the first part) as the attempt, so nothing is retried after a part was yielded.
 */
export async function runWithRetries<T>(
  call: ModelCall,
  callSignal: CallSignal,
  attempt: (signal: AbortSignal) => PromiseLike<T>,
): Promise<T> {
  for (let attemptIndex = 0; ; attemptIndex += 1) {
    try {
      return await attempt(callSignal.signal);
    } catch (error) {
      const failure = mapCallFailure(error, call, callSignal);
      const delayMs = retryDelayMs(failure, {
        attempt: attemptIndex,
        maxRetries: call.entry.maxRetries,
        remainingMs: callSignal.remainingMs(),
        settings: call.retry,
      });
      if (delayMs === undefined) throw failure.error;
      (call.request.log ?? call.logger)?.warn(
        {
          provider: call.entry.name,
          model: call.modelId,
          retry: attemptIndex + 1,
          delayMs: Math.round(delayMs),
          upstreamStatus: failure.error.upstreamStatus,
          reason: failure.error.message,
        },
        'retrying model call',
      );
      try {
        await sleep(delayMs, callSignal.signal);
      } catch (abortReason) {
        throw mapCallFailure(abortReason, call, callSignal).error;
      }
    }
  }
}
