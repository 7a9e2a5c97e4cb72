import { describe, expect, it } from 'vitest';
import { createRunEventBus } from '../../src/bus/index.js';
import { createId } from '../../src/ids.js';
import { collect, delta, runEnd, runStart, seqs, tick } from './bus-test-helpers.js';
import { describeRunEventBus } from './run-event-bus.suite.js';

describeRunEventBus('in-process bus', (options) => createRunEventBus(options));

describe('in-process bus: a run taken over without its earlier events', () => {
  it('gives a reader that waited before its first event the events numbered from a new block', async () => {
    const bus = createRunEventBus();
    try {
      const runId = createId('run');
      const seen = collect(bus.subscribe(runId));
      await tick();
      await bus.publish(runId, runStart, 1_000_001);
      await bus.publish(runId, delta('whole'), 1_000_002);
      await bus.publish(runId, runEnd, 1_000_003);
      expect(seqs(await seen)).toEqual([1_000_001, 1_000_002, 1_000_003]);
    } finally {
      await bus.close();
    }
  });
});
