/** One AbortSignal per model call: the caller's signal, the per-call deadline, and our own cleanup abort. */
export interface CallSignal {
  readonly signal: AbortSignal;
  readonly timedOut: boolean;
  readonly callerAborted: boolean;
  remainingMs(): number;
  /** Stops the upstream request (the consumer stopped reading). */
  abort(): void;
  /** Clears the deadline timer and the listener on the caller's signal. */
  dispose(): void;
}

export function createCallSignal(timeoutMs: number, caller?: AbortSignal): CallSignal {
  const controller = new AbortController();
  const deadline = Date.now() + timeoutMs;
  let timedOut = false;
  let callerAborted = false;
  const onCallerAbort = () => {
    callerAborted = true;
    controller.abort(caller?.reason);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`model call exceeded ${timeoutMs} ms`, 'TimeoutError'));
  }, timeoutMs);
  if (caller?.aborted) onCallerAbort();
  else caller?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    get callerAborted() {
      return callerAborted;
    },
    remainingMs: () => deadline - Date.now(),
    abort: () => controller.abort(new DOMException('model call stopped by its consumer', 'AbortError')),
    dispose() {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onCallerAbort);
    },
  };
}
