import { describe, expect, it } from 'vitest';
import { createInProcessRunEventBus } from '../../src/bus/in-process-run-event-bus.js';
import { createRunFlow } from '../../src/agents/runtime/run-flow.js';

const KIB_DELTA = { type: 'text-delta', delta: 'x'.repeat(1024) } as const;

/**
 * The flow window is what a run reads of its upstream beyond what its client's socket took: a run whose client
 * stopped reading keeps that much text for as long as it waits (bench/HISTORY.md, stalled readers).
 */
describe('a run held by its client', () => {
  it('stops reading once its client is more than 64 KiB of text behind, and goes on when the client takes one', async () => {
    const bus = createInProcessRunEventBus();
    const flow = createRunFlow();
    const reader = flow.hold(bus.subscribe('run_flow'))[Symbol.asyncIterator]();
    const signal = new AbortController().signal;
    // The client asks for the first event (it is then the run's holding reader) and takes none after it.
    const first = reader.next();
    const publish = async () => flow.published(await bus.publish('run_flow', KIB_DELTA));

    for (let index = 0; index < 64; index += 1) await publish();
    expect((await first).value).toMatchObject({ seq: 1 });
    expect(flow.ready(signal)).toBeUndefined();
    await publish();
    const behind = flow.ready(signal);
    expect(behind).toBeInstanceOf(Promise);

    // Asking for the next event is done with the first one: the client is back within the window.
    void reader.next();
    await behind;
    expect(flow.ready(signal)).toBeUndefined();
    await reader.return(undefined);
    await bus.close();
  });
});
