import { describe, expect, it } from 'vitest';
import { createRunFrameCache } from '../../../src/gateway/agui/run-frame-cache.js';
import type { RunFrame } from '../../../src/gateway/agui/run-frame.js';
import { streamRunEvents } from '../../../src/gateway/agui/stream-run-events.js';
import type { StreamEvent } from '../../../src/gateway/agui/agui-event.js';
import type { RunEvent } from '../../../src/bus/index.js';
import { createInProcessRunEventBus } from '../../../src/bus/in-process-run-event-bus.js';
import { runEvents, TEXT_RUN } from './run-events.fixture.js';

async function* replay(events: RunEvent[]): AsyncGenerator<RunEvent> {
  yield* events;
}

describe('streamRunEvents', () => {
  it('holds the terminal event until beforeTerminal resolves (the run’s records are stored)', async () => {
    const sent: StreamEvent[] = [];
    const sink = { closed: false, write: (frame: RunFrame) => void sent.push(...frame.events) };
    let resolveRecords!: () => void;
    const records = new Promise<void>((resolve) => (resolveRecords = resolve));
    const frames = createRunFrameCache();
    const streaming = streamRunEvents(
      replay(runEvents('run_abc', TEXT_RUN)),
      frames.open({ runId: 'run_abc', format: 'agui' }),
      sink,
      { beforeTerminal: () => records },
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent.map((event) => event.type)).not.toContain('RUN_FINISHED');
    expect(sent.map((event) => event.type)).toContain('TEXT_MESSAGE_CONTENT');
    resolveRecords();
    await streaming;
    expect(sent.at(-1)?.type).toBe('RUN_FINISHED');
    expect(frames.size).toBe(0);
  });

  it('ends a resume whose Last-Event-ID is older than the log with replay_window_passed, not a silent gap', async () => {
    const sent: StreamEvent[] = [];
    const sink = { closed: false, write: (frame: RunFrame) => void sent.push(...frame.events) };
    // A live run's bounded log that starts at seq 3: the client had seq 1 only.
    const log = runEvents('run_abc', TEXT_RUN).slice(2);
    await streamRunEvents(replay(log), createRunFrameCache().open({ runId: 'run_abc', format: 'agui' }), sink, {
      afterSeq: 1,
    });
    expect(sent).toEqual([
      {
        type: 'RUN_ERROR',
        code: 'replay_window_passed',
        message:
          'Run run_abc no longer holds the events after 1 while it runs (the oldest kept is 3); attach again once it ended to read its whole log',
      },
    ]);
    // From within the log it goes on as before.
    const resumed: StreamEvent[] = [];
    await streamRunEvents(
      replay(log),
      createRunFrameCache().open({ runId: 'run_abc', format: 'agui' }),
      { closed: false, write: (frame: RunFrame) => void resumed.push(...frame.events) },
      { afterSeq: 2 },
    );
    expect(resumed.at(-1)?.type).toBe('RUN_FINISHED');
  });

  it('writes an event to every subscriber of the in-process bus within the publish that brought it', async () => {
    const bus = createInProcessRunEventBus();
    const frames = createRunFrameCache();
    const [first, ...rest] = runEvents('run_abc', TEXT_RUN);
    // Subscribers attach to a run under way (the live run's log exists), as GET /agui/ws?run_id= does.
    await bus.publish('run_abc', first);
    const written: number[][] = [[], [], []];
    const streams = written.map((seqs) =>
      streamRunEvents(bus.subscribe('run_abc'), frames.open({ runId: 'run_abc', format: 'agui' }), {
        closed: false,
        write: (frame: RunFrame) => void seqs.push(frame.seq!),
      }),
    );
    for (const seqs of written) expect(seqs).toEqual([1]);
    for (const event of rest) {
      // Not awaited: no microtask runs between the publish and the check.
      void bus.publish('run_abc', event);
      for (const seqs of written) expect(seqs.at(-1)).toBe(event.seq);
    }
    await Promise.all(streams);
    expect(written[0]).toEqual(runEvents('run_abc', TEXT_RUN).map((event) => event.seq));
    expect(frames.size).toBe(0);
    await bus.close();
  });
});
