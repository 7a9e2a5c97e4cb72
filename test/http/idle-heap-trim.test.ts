import { getHeapStatistics } from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import { startIdleHeapTrim } from '../../src/http/index.js';

const heapMb = () => getHeapStatistics().total_heap_size / 1024 / 1024;

describe('idle heap trim', () => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  it('gives back the heap a burst grew to once the event loop is idle', async () => {
    stop = startIdleHeapTrim({ intervalMs: 100, growthBytes: 16 * 1024 * 1024 });
    const before = heapMb();
    // A burst: objects that live long enough to reach the old generation, then become garbage.
    let burst: object[] | undefined = [];
    for (let index = 0; index < 1_500_000; index += 1) burst.push({ index, text: `item ${index}` });
    burst = undefined;
    const grown = heapMb();
    expect(grown).toBeGreaterThan(before + 64);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(heapMb()).toBeLessThan(before + (grown - before) / 4);
  });
});
