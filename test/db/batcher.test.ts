import { describe, expect, it } from 'vitest';
import { createBatcher } from '../../src/db/index.js';

/** A batcher whose batch writes stay pending until released, so the test sees which are in flight. */
function heldBatcher(concurrency?: number) {
  const started: number[][] = [];
  const releases: Array<() => void> = [];
  const batcher = createBatcher<number>({
    maxBatch: 100,
    concurrency,
    writeBatch: (items) => {
      started.push(items);
      return new Promise<void>((resolve) => releases.push(resolve));
    },
  });
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
  return { batcher, started, releases, nextTurn };
}

describe('batcher concurrency', () => {
  it('writes one batch at a time by default; what arrives meanwhile forms the next batch', async () => {
    const { batcher, started, releases, nextTurn } = heldBatcher();
    const first = batcher.add(1);
    await nextTurn();
    const later = [batcher.add(2), batcher.add(3)];
    await nextTurn();
    expect(started).toEqual([[1]]);
    releases[0]();
    await first;
    await nextTurn();
    expect(started).toEqual([[1], [2, 3]]);
    releases[1]();
    await Promise.all(later);
  });

  it('starts another batch while one is written, up to `concurrency`, and flush waits for all', async () => {
    const { batcher, started, releases, nextTurn } = heldBatcher(2);
    const writes = [batcher.add(1)];
    await nextTurn();
    writes.push(batcher.add(2));
    await nextTurn();
    writes.push(batcher.add(3));
    await nextTurn();
    // Two in flight; the third waits for one of them.
    expect(started).toEqual([[1], [2]]);
    let flushed = false;
    const flushing = batcher.flush().then(() => (flushed = true));
    releases[1]();
    await writes[1];
    await nextTurn();
    expect(started).toEqual([[1], [2], [3]]);
    expect(flushed).toBe(false);
    releases[0]();
    releases[2]();
    await flushing;
    await Promise.all(writes);
    expect(flushed).toBe(true);
  });
});
