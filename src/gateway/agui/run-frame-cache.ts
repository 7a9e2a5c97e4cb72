import type { RunEvent } from '../../bus/index.js';
import type { StreamFormat, StreamIdentity } from './agui-event.js';
import { createEventMapper, type EventMapper, type MapperState } from './create-event-mapper.js';
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
 * Each entry keeps the frames of its last `maxBytes` (encoded JSON) only, and none while one stream alone
 * holds it; a stream further behind than that maps its events on its own from where it was, which gives the
 * same frames at its own cost.
 */
export interface RunFrameCache {
  /** A framer for one stream; release() it when the stream ends. */
  open(key: RunFrameKey): RunFramer;
  /** How many (run, format, identity) entries hold frames: 0 once every framer was released. */
  readonly size: number;
  /** Encoded bytes the cache holds across its entries. */
  readonly bytes: number;
}

export interface RunFrameCacheOptions {
  /** Encoded bytes of frames kept per entry (run, format, identity). Default FRAME_CACHE_BYTES. */
  maxBytes?: number;
}

/** 1 MiB of frames per run and format: a fast stream may lead a slow one by this much and still share its frames. */
export const FRAME_CACHE_BYTES = 1024 * 1024;

/**
 * One entry: a mapper fed in seq order by whichever stream reaches an event first, and the frames it made
 * lately (with the mapper's state after each), so a stream a little behind reads them back.
 */
interface SharedFrames {
  readonly format: StreamFormat;
  readonly identity: StreamIdentity;
  readonly mapper: EventMapper;
  /** Seq of the first event the mapper saw: only a stream that starts there may share its frames. */
  start?: number;
  /** Seq of frames[0] (past `start` once older frames were dropped). */
  origin: number;
  readonly frames: RunFrame[];
  /** The mapper's state after each frame: where a stream that stops sharing goes on from. */
  readonly states: MapperState[];
  /** Encoded bytes of `frames`. */
  bytes: number;
  /** Error frames by position and error: streams cut off together share one. */
  readonly failures: Map<string, RunFrame>;
  holders: number;
}

export function createRunFrameCache(options: RunFrameCacheOptions = {}): RunFrameCache {
  const maxBytes = options.maxBytes ?? FRAME_CACHE_BYTES;
  const entries = new Map<string, SharedFrames>();
  return {
    get size() {
      return entries.size;
    },
    get bytes() {
      let total = 0;
      for (const entry of entries.values()) total += entry.bytes;
      return total;
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
          states: [],
          bytes: 0,
          failures: new Map(),
          holders: 0,
        };
        entries.set(key, shared);
      }
      shared.holders += 1;
      const entry = shared;
      return createFramer(entry, maxBytes, () => {
        entry.holders -= 1;
        if (entry.holders === 0 && entries.get(key) === entry) entries.delete(key);
      });
    },
  };
}

function createFramer(shared: SharedFrames, maxBytes: number, onRelease: () => void): RunFramer {
  /** Seq of the last event this stream framed, and the mapper's state after it. */
  let last: number | undefined;
  let lastState: MapperState;
  /** Set once the stream left the shared sequence: from then on it maps as a lone stream would. */
  let own: EventMapper | undefined;
  let released = false;
  return {
    frame(event) {
      if (!own) {
        const found = sharedFrame(shared, event, last, maxBytes);
        if (found) {
          last = event.seq;
          lastState = found.state;
          return found.frame;
        }
        own = createEventMapper(shared.format, shared.identity, lastState);
      }
      last = event.seq;
      return new RunFrame(own.map(event), event.seq);
    },
    fail(error) {
      if (own) return new RunFrame(own.fail(error));
      const key = JSON.stringify([last ?? null, error.code, error.message]);
      let frame = shared.failures.get(key);
      if (!frame) {
        frame = new RunFrame(createEventMapper(shared.format, shared.identity, lastState).fail(error));
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
 * not where the shared mapper has been (it started elsewhere, or its source skipped a seq: a stream that
 * started on its own would have mapped differently) or is behind the frames still kept.
 */
function sharedFrame(
  shared: SharedFrames,
  event: RunEvent,
  last: number | undefined,
  maxBytes: number,
): { frame: RunFrame; state: MapperState } | undefined {
  if (shared.start === undefined) shared.start = shared.origin = event.seq;
  if (event.seq !== (last === undefined ? shared.start : last + 1)) return undefined;
  const index = event.seq - shared.origin;
  if (index < 0) return undefined;
  if (index < shared.frames.length) return { frame: shared.frames[index], state: shared.states[index] };
  // This stream framed every event before this one here, so the mapper stands just before it.
  const frame = new RunFrame(shared.mapper.map(event), event.seq);
  const state = shared.mapper.state;
  if (shared.holders === 1) {
    // The only stream is the one at the front: nobody would read these frames back, so none are kept (a
    // run streamed by its client alone held ~3.5 KB per 1 KiB delta here). A stream that opens later and
    // starts before them maps on its own, as one further behind than maxBytes does.
    shared.frames.length = 0;
    shared.states.length = 0;
    shared.bytes = 0;
    shared.origin = event.seq + 1;
    return { frame, state };
  }
  shared.frames.push(frame);
  shared.states.push(state);
  shared.bytes += encodedBytes(frame);
  // The newest frame stays whatever its size: the streams at the front take it next.
  while (shared.bytes > maxBytes && shared.frames.length > 1) {
    shared.bytes -= encodedBytes(shared.frames.shift()!);
    shared.states.shift();
    shared.origin += 1;
  }
  return { frame, state };
}

function encodedBytes(frame: RunFrame): number {
  let total = 0;
  for (const text of frame.json) total += text.length;
  return total;
}
