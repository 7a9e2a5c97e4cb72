import { describe, expect, it } from 'vitest';
import { startIdleHeapTrim } from '../../src/http/index.js';

const MiB = 1024 * 1024;

/** A trim driven by hand: `check()` runs one interval with the given busy share and heap size. */
function startFakeTrim(startHeapMiB: number) {
  const state = { heap: startHeapMiB * MiB, busy: 0, collections: 0, afterCollect: startHeapMiB * MiB };
  let check: () => void = () => undefined;
  let stopped = false;
  const stop = startIdleHeapTrim({
    intervalMs: 100,
    growthBytes: 16 * MiB,
    collect: () => {
      state.collections += 1;
      state.heap = state.afterCollect;
    },
    heapBytes: () => state.heap,
    busyShare: () => state.busy,
    every: (_ms, run) => {
      check = run;
      return () => {
        stopped = true;
      };
    },
  });
  return {
    state,
    stop,
    stopped: () => stopped,
    tick(busy: number, heapMiB: number) {
      state.busy = busy;
      state.heap = heapMiB * MiB;
      check();
    },
  };
}

describe('idle heap trim', () => {
  it('collects once the loop was idle for an interval and the heap grew past the threshold', () => {
    const trim = startFakeTrim(100);
    trim.state.afterCollect = 110 * MiB;
    trim.tick(0.5, 300); // busy: a burst is under way
    expect(trim.state.collections).toBe(0);
    trim.tick(0.01, 300); // idle, grown by 200 MiB
    expect(trim.state.collections).toBe(1);
    trim.tick(0.01, 110); // back within the threshold: nothing to give back
    expect(trim.state.collections).toBe(1);
  });

  it('leaves a heap that grew less than the threshold alone', () => {
    const trim = startFakeTrim(100);
    trim.tick(0, 115);
    expect(trim.state.collections).toBe(0);
  });

  it('after a collection that freed little, waits for the heap to grow again', () => {
    const trim = startFakeTrim(100);
    trim.state.afterCollect = 195 * MiB; // the live set itself grew: under 10 % freed
    trim.tick(0, 200);
    expect(trim.state.collections).toBe(1);
    trim.tick(0, 205); // above the first baseline, within the threshold of the new one
    expect(trim.state.collections).toBe(1);
    trim.tick(0, 215);
    expect(trim.state.collections).toBe(2);
  });

  it('returns the function that stops its timer', () => {
    const trim = startFakeTrim(100);
    trim.stop();
    expect(trim.stopped()).toBe(true);
  });
});
