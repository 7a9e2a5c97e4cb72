import type { RunEvent } from '../../bus/index.js';
import type { StreamFormat, StreamIdentity } from './agui-event.js';
import { createEventMapper, type EventMapper } from './create-event-mapper.js';
import { RunFrame } from './run-frame.js';

export interface RunFrameKey {
  runId: string;
  format: StreamFormat;
  identity?: StreamIdentity;
}

/** One stream's view of a run's frames. Feed it the stream's events in the order its source gives them. */
export interface RunFramer {
  /** The frame of the stream's next event. */
  frame(event: RunEvent): RunFrame;
  /** The error frame for a stream that stops before the run's terminal event, closing what the stream left open. */
  fail(error: { code: string; message: string }): RunFrame;
  /** The stream is done; the cache drops the run's frames after the last of its streams. */
  release(): void;
}

/**
 * Maps and encodes each run's events once for all the streams that send them, per run, format and
 * identity: a thousand subscribers cost one mapper call and one JSON.stringify per event, not a thousand.
 */
export interface RunFrameCache {
  /** A framer for one stream; release() it when the stream ends. */
  open(key: RunFrameKey): RunFramer;
  /** How many (run, format, identity) entries hold frames: 0 once every framer was released. */
  readonly size: number;
}

/**
 * One entry: a mapper fed in seq order by whichever stream reaches an event first, and every frame it
 * made since `origin`, so a stream that attaches late (or resumes) reads the earlier frames back.
 */
interface SharedFrames {
  readonly format: StreamFormat;
  readonly identity: StreamIdentity;
  readonly mapper: EventMapper;
  /** Seq of frames[0]: the first event the mapper saw. */
  origin: number;
  readonly frames: RunFrame[];
  /** The RunEvents behind `frames`, for a stream that must go on with a mapper of its own. */
  readonly events: RunEvent[];
  /** Error frames by position and error: streams cut off together share one. */
  readonly failures: Map<string, RunFrame>;
  holders: number;
}

export function createRunFrameCache(): RunFrameCache {
  const entries = new Map<string, SharedFrames>();
  return {
    get size() {
      return entries.size;
    },
    open({ runId, format, identity = {} }) {
      const key = JSON.stringify([runId, format, identity.threadId ?? null, identity.runId ?? null]);
      let shared = entries.get(key);
      if (!shared) {
        shared = {
          format,
          identity,
          mapper: createEventMapper(format, identity),
          origin: 0,
          frames: [],
          events: [],
          failures: new Map(),
          holders: 0,
        };
        entries.set(key, shared);
      }
      shared.holders += 1;
      const entry = shared;
      return createFramer(entry, () => {
        entry.holders -= 1;
        if (entry.holders === 0 && entries.get(key) === entry) entries.delete(key);
      });
    },
  };
}

function createFramer(shared: SharedFrames, onRelease: () => void): RunFramer {
  /** Seq of the last event this stream framed. */
  let last: number | undefined;
  /** Set once the stream left the shared sequence: from then on it maps as a lone stream would. */
  let own: EventMapper | undefined;
  let released = false;
  return {
    frame(event) {
      if (!own) {
        const frame = sharedFrame(shared, event, last);
        if (frame) {
          last = event.seq;
          return frame;
        }
        own = replayMapper(shared, last);
      }
      last = event.seq;
      return new RunFrame(own.map(event), event.seq);
    },
    fail(error) {
      if (own) return new RunFrame(own.fail(error));
      const key = JSON.stringify([last ?? null, error.code, error.message]);
      let frame = shared.failures.get(key);
      if (!frame) {
        frame = new RunFrame(replayMapper(shared, last).fail(error));
        shared.failures.set(key, frame);
      }
      return frame;
    },
    release() {
      if (released) return;
      released = true;
      onRelease();
    },
  };
}

/**
 * The shared frame of `event`, mapped now if this stream got there first. Undefined when the stream is
 * not where the shared mapper has been (it started later than `origin`, or its source skipped a seq):
 * a stream that started on its own would have mapped differently, so it must not use these frames.
 */
function sharedFrame(shared: SharedFrames, event: RunEvent, last: number | undefined): RunFrame | undefined {
  if (last === undefined && shared.frames.length === 0) shared.origin = event.seq;
  if (event.seq !== (last === undefined ? shared.origin : last + 1)) return undefined;
  const index = event.seq - shared.origin;
  if (index < shared.frames.length) return shared.frames[index];
  // This stream framed every event before this one here, so the mapper stands just before it.
  const frame = new RunFrame(shared.mapper.map(event), event.seq);
  shared.frames.push(frame);
  shared.events.push(event);
  return frame;
}

/** A mapper in the state a lone stream's would be in after the shared events up to `last`. */
function replayMapper(shared: SharedFrames, last: number | undefined): EventMapper {
  const mapper = createEventMapper(shared.format, shared.identity);
  if (last === undefined) return mapper;
  for (let index = 0; index <= last - shared.origin; index += 1) mapper.map(shared.events[index]);
  return mapper;
}
