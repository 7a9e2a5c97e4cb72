import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../src/bus/index.js';
import type { StreamEvent, StreamFormat } from '../../../src/gateway/agui/agui-event.js';
import { createEventMapper } from '../../../src/gateway/agui/create-event-mapper.js';
import { formatSseEvents } from '../../../src/gateway/agui/format-sse-events.js';
import { createRunFrameCache, type RunFramer } from '../../../src/gateway/agui/run-frame-cache.js';
import { runEvents, TOOL_RUN } from './run-events.fixture.js';

const RUN = runEvents('run_abc', TOOL_RUN);

/** What a stream that maps on its own sends for `events` (the behaviour the cache must keep). */
function lone(format: StreamFormat, events: RunEvent[]): StreamEvent[][] {
  const mapper = createEventMapper(format);
  return events.map((event) => mapper.map(event));
}

const eventsOf = (framer: RunFramer, events: RunEvent[]) => events.map((event) => framer.frame(event).events);

describe('createRunFrameCache', () => {
  it('maps and encodes each event once for streams that read the run from its start', () => {
    const cache = createRunFrameCache();
    const first = cache.open({ runId: 'run_abc', format: 'agui' });
    const second = cache.open({ runId: 'run_abc', format: 'agui' });
    const half = Math.floor(RUN.length / 2);
    const early = RUN.slice(0, half).map((event) => first.frame(event));
    // The second stream catches up on frames the first one made, then gets ahead of it.
    const late = RUN.map((event) => second.frame(event));
    const rest = RUN.slice(half).map((event) => first.frame(event));
    expect(late).toHaveLength(RUN.length);
    late.forEach((frame, index) => expect(frame).toBe([...early, ...rest][index]));
    expect(late.map((frame) => frame.events)).toEqual(lone('agui', RUN));
    expect(cache.size).toBe(1);
  });

  it('encodes a frame as the SSE block of its events with the seq as id, and as one JSON text per event', () => {
    const framer = createRunFrameCache().open({ runId: 'run_abc', format: 'agui' });
    const frames = RUN.map((event) => framer.frame(event));
    const toolCall = frames.find((frame) => frame.events.length === 3)!;
    expect(toolCall.sse.toString('utf8')).toBe(formatSseEvents(toolCall.events, toolCall.seq));
    expect(toolCall.sse.toString('utf8').match(/^id: /gm)).toHaveLength(1);
    expect(toolCall.json).toEqual(toolCall.events.map((event) => JSON.stringify(event)));
  });

  it('keeps formats and identities apart', () => {
    const cache = createRunFrameCache();
    const agui = cache.open({ runId: 'run_abc', format: 'agui' });
    const simple = cache.open({ runId: 'run_abc', format: 'simple' });
    const echoed = cache.open({
      runId: 'run_abc',
      format: 'agui',
      identity: { threadId: 'thread-1', runId: 'client-run' },
    });
    expect(cache.size).toBe(3);
    expect(eventsOf(agui, RUN)).toEqual(lone('agui', RUN));
    expect(eventsOf(simple, RUN)).toEqual(lone('simple', RUN));
    expect(echoed.frame(RUN[0]).events).toEqual([{ type: 'RUN_STARTED', threadId: 'thread-1', runId: 'client-run' }]);
  });

  it('lets a stream whose source starts later in the log map on its own, as it did alone', () => {
    const cache = createRunFrameCache();
    eventsOf(cache.open({ runId: 'run_abc', format: 'agui' }), RUN);
    // A bounded bus log that dropped the first events: a lone mapper never saw run-start or the step.
    const window = RUN.slice(2);
    expect(eventsOf(cache.open({ runId: 'run_abc', format: 'agui' }), window)).toEqual(lone('agui', window));
  });

  it('lets a stream whose source skips an event go on with a mapper rebuilt from what it had', () => {
    const cache = createRunFrameCache();
    eventsOf(cache.open({ runId: 'run_abc', format: 'agui' }), RUN);
    const gapped = [...RUN.slice(0, 3), ...RUN.slice(4)];
    expect(eventsOf(cache.open({ runId: 'run_abc', format: 'agui' }), gapped)).toEqual(lone('agui', gapped));
  });

  it('fails a stream from where that stream is, not from where the others are', () => {
    const cache = createRunFrameCache();
    eventsOf(cache.open({ runId: 'run_abc', format: 'agui' }), RUN);
    const cut = cache.open({ runId: 'run_abc', format: 'agui' });
    // Cut off inside the first text message: its end comes before the error.
    eventsOf(cut, RUN.slice(0, 3));
    const error = { code: 'stream_interrupted', message: 'the bus went away' };
    const failed = cut.fail(error);
    const mapper = createEventMapper('agui');
    RUN.slice(0, 3).forEach((event) => mapper.map(event));
    expect(failed.events).toEqual(mapper.fail(error));
    expect(failed.events.map((event) => event.type)).toEqual(['TEXT_MESSAGE_END', 'RUN_ERROR']);
    expect(failed.seq).toBeUndefined();
    expect(failed.sse.toString('utf8')).not.toContain('id: ');
  });

  it('drops a run’s frames when its last stream is released, once per stream', () => {
    const cache = createRunFrameCache();
    const streams = [
      cache.open({ runId: 'run_abc', format: 'agui' }),
      cache.open({ runId: 'run_abc', format: 'agui' }),
      cache.open({ runId: 'run_abc', format: 'simple' }),
    ];
    streams.forEach((stream) => eventsOf(stream, RUN));
    streams[0].release();
    streams[0].release();
    expect(cache.size).toBe(2);
    streams[2].release();
    expect(cache.size).toBe(1);
    streams[1].release();
    expect(cache.size).toBe(0);
    // A stream that comes after that starts a new entry from the log again.
    const again = cache.open({ runId: 'run_abc', format: 'agui' });
    expect(eventsOf(again, RUN)).toEqual(lone('agui', RUN));
    again.release();
    expect(cache.size).toBe(0);
  });

  it('keeps no frames while one stream alone reads a run, and a stream that comes later maps on its own', () => {
    const cache = createRunFrameCache();
    const alone = cache.open({ runId: 'run_abc', format: 'agui' });
    // A client that stopped reading holds its run's newest events: its own frames must not pile up here too.
    for (const event of RUN) {
      alone.frame(event);
      expect(cache.bytes).toBe(0);
    }
    expect(cache.size).toBe(1);
    expect(eventsOf(cache.open({ runId: 'run_abc', format: 'agui' }), RUN)).toEqual(lone('agui', RUN));
  });

  describe('bounded by bytes', () => {
    // A long answer: many text deltas of 100 characters, then a tool call and a second message.
    const LONG = runEvents('run_long', [
      ...TOOL_RUN.slice(0, 2),
      ...Array.from({ length: 200 }, (_, i) => ({ type: 'text-delta', delta: `${i}`.padEnd(100, '.') }) as const),
      ...TOOL_RUN.slice(3),
    ]);
    const MAX = 2_000;

    it('keeps at most maxBytes of frames per run and format, however long the run', () => {
      const cache = createRunFrameCache({ maxBytes: MAX });
      const framer = cache.open({ runId: 'run_long', format: 'agui' });
      // A second stream that has not read yet: the frames are kept for it, up to the bound.
      cache.open({ runId: 'run_long', format: 'agui' });
      let largest = 0;
      for (const event of LONG) {
        largest = Math.max(largest, framer.frame(event).json.join('').length);
        expect(cache.bytes).toBeLessThanOrEqual(MAX + largest);
      }
      expect(LONG.length * 100).toBeGreaterThan(10 * MAX);
    });

    it('gives a stream further behind than that the frames a lone stream gets, from where it was', () => {
      const cache = createRunFrameCache({ maxBytes: MAX });
      const slow = cache.open({ runId: 'run_long', format: 'agui' });
      const fast = cache.open({ runId: 'run_long', format: 'agui' });
      // Inside the first text message: its state (the open message id) must carry over.
      const early = eventsOf(slow, LONG.slice(0, 10));
      eventsOf(fast, LONG);
      const rest = eventsOf(slow, LONG.slice(10));
      expect([...early, ...rest]).toEqual(lone('agui', LONG));
      const failed = cache.open({ runId: 'run_long', format: 'agui' });
      eventsOf(failed, LONG.slice(0, 10));
      eventsOf(cache.open({ runId: 'run_long', format: 'agui' }), LONG);
      expect(failed.fail({ code: 'stream_interrupted', message: 'gone' }).events.map((event) => event.type)).toEqual([
        'TEXT_MESSAGE_END',
        'RUN_ERROR',
      ]);
    });

    it('lets a stream that starts at the first event after its frames were dropped map on its own', () => {
      const cache = createRunFrameCache({ maxBytes: MAX });
      eventsOf(cache.open({ runId: 'run_long', format: 'agui' }), LONG);
      expect(eventsOf(cache.open({ runId: 'run_long', format: 'agui' }), LONG)).toEqual(lone('agui', LONG));
      // One that starts where the kept frames start did not see what came before: it maps as a lone stream would.
      const window = LONG.slice(LONG.length - 5);
      expect(eventsOf(cache.open({ runId: 'run_long', format: 'agui' }), window)).toEqual(lone('agui', window));
    });
  });
});
