import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface IdleHeapTrimOptions {
  /** How often the event loop's utilisation and the heap are checked. Default 5 s. */
  intervalMs?: number;
  /** The loop counts as idle below this share of busy time over one interval. Default 2 %. */
  idleUtilization?: number;
  /** Heap growth since the last collection that is worth giving back. Default 32 MiB. */
  growthBytes?: number;
  /** Seams for tests: the full collection, the heap's size, the loop's busy share since the last check, and
   * the timer (`every(ms, check)` returns its stop function). Defaults: V8's gc, its heap statistics, the
   * event loop's utilisation and an unref'd setInterval. */
  collect?: () => void;
  heapBytes?: () => number;
  busyShare?: () => number;
  every?: (intervalMs: number, check: () => void) => () => void;
}

/**
 * V8 keeps the heap a burst of load grew to until its next full collection, and an idle server allocates
 * too little to get one, so its RSS stays at the burst's peak for as long as it stays quiet (a 5-minute
 * load left 380 MiB resident against 200 MiB idle, with only 95 MiB of it live). After a whole interval of
 * an idle event loop with a grown heap, one full collection gives the memory back: the pause falls when no
 * request is there to wait for it. Returns the function that stops it.
 */
export function startIdleHeapTrim(options: IdleHeapTrimOptions = {}): () => void {
  const { intervalMs = 5_000, idleUtilization = 0.02, growthBytes = 32 * 1024 * 1024 } = options;
  const collect = options.collect ?? exposeGc();
  const heapBytes = options.heapBytes ?? (() => getHeapStatistics().total_heap_size);
  const busyShare = options.busyShare ?? createLoopMeter();
  const every = options.every ?? everyInterval;
  const idleHeap = heapBytes();
  let baseline = idleHeap;
  return every(intervalMs, () => {
    const busy = busyShare();
    const heap = heapBytes();
    if (busy >= idleUtilization || heap <= baseline + growthBytes) return;
    collect();
    const after = heapBytes();
    // V8 sizes the heap after a collection by the allocation rate it just saw, so the first collection after
    // a burst keeps a margin and the next idle one shrinks further. A collection that freed little means
    // the live set itself grew: wait for it to grow again before the next one.
    baseline = after < heap * 0.9 ? idleHeap : after;
  });
}

/** The event loop's busy share since the previous call (the first call: since this was created). */
function createLoopMeter(): () => number {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    return busy;
  };
}

function everyInterval(intervalMs: number, check: () => void): () => void {
  const timer = setInterval(check, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** `global.gc` without starting node with --expose-gc: the flag takes effect for contexts created after it is set. */
function exposeGc(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
