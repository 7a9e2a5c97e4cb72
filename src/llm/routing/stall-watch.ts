/**
 * One attempt's signal: its target's, aborted besides when the upstream stays silent for `stallMs` (before its
 * first part or between two parts). Off when `stallMs` is undefined: the target's timeout_ms alone bounds it.
 */
export interface StallWatch {
  readonly signal: AbortSignal;
  /** The silence that aborted the attempt, in ms; undefined while it has not stalled. */
  readonly stalledMs: number | undefined;
  /** A part arrived: the silence starts again. */
  touch(): void;
  /** Stops the upstream request (the consumer stopped reading, or the attempt failed). */
  abort(): void;
  dispose(): void;
}

export function createStallWatch(stallMs: number | undefined, parent: AbortSignal): StallWatch {
  const controller = new AbortController();
  let stalledMs: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  const onParentAbort = () => controller.abort(parent.reason);
  const arm = () => {
    if (stallMs === undefined || stalledMs !== undefined) return;
    // refresh() re-arms the same timer: a part costs no new timer.
    if (timer) timer.refresh();
    else
      timer = setTimeout(() => {
        stalledMs = stallMs;
        controller.abort(new DOMException(`upstream silent for ${stallMs} ms`, 'TimeoutError'));
      }, stallMs);
  };
  if (parent.aborted) onParentAbort();
  else parent.addEventListener('abort', onParentAbort, { once: true });
  arm();
  return {
    signal: controller.signal,
    get stalledMs() {
      return stalledMs;
    },
    touch: arm,
    abort: () => controller.abort(new DOMException('model call stopped by its consumer', 'AbortError')),
    dispose() {
      clearTimeout(timer);
      parent.removeEventListener('abort', onParentAbort);
    },
  };
}
