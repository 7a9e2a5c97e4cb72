import {
  isSyncRunEventSource,
  isTerminalEvent,
  NOT_YET,
  type RunEvent,
  type SyncRunEventSource,
} from '../../bus/index.js';
import { createError, isAppError } from '../../errors.js';
import type { RunFrame } from './run-frame.js';
import type { RunFramer } from './run-frame-cache.js';

/** Where frames go: an SSE response or a WebSocket. */
export interface EventSink {
  /** Writes a frame; returns a promise only when the client is behind (await it before the next write). */
  write(frame: RunFrame): Promise<void> | undefined;
  /** True once the client is gone: the stream stops reading. */
  readonly closed: boolean;
}

export interface StreamRunEventsOptions {
  /** The client already has every event up to this seq (SSE Last-Event-ID); earlier ones only rebuild the mapper's state. */
  afterSeq?: number;
  /**
   * Awaited before the terminal event goes out: the run handle's result, so that a client that saw the
   * run end can rely on its record, usage and risk events being stored.
   */
  beforeTerminal?: () => Promise<unknown>;
}

type StreamFailure = { code: string; message: string };

const INTERRUPTED: StreamFailure = {
  code: 'stream_interrupted',
  message: 'The run event stream ended before the run did',
};

/**
 * Sends a run's events, as `framer` frames them, until the run's terminal event, then releases the
 * framer. A source that ends or fails before it (a lost bus connection, a lagging reader) still ends the
 * stream with exactly one error event.
 */
export async function streamRunEvents(
  source: AsyncIterable<RunEvent>,
  framer: RunFramer,
  sink: EventSink,
  options: StreamRunEventsOptions = {},
): Promise<void> {
  try {
    const failure = isSyncRunEventSource(source)
      ? await pump(source, framer, sink, options)
      : await forward(source, framer, sink, options);
    if (failure && !sink.closed) await sink.write(framer.fail(failure));
  } finally {
    framer.release();
  }
}

/** What one event did to the stream: go on, stop (undefined failure: done), or wait for a promise first. */
type Step = { next: 'go-on' } | { next: 'stop'; failure?: StreamFailure } | { next: 'wait'; until: Promise<unknown> };

const GO_ON: Step = { next: 'go-on' };
const DONE: Step = { next: 'stop' };

/** The per-event work both readers share: replay-window check, framing, the write and when to stop. */
function createStepper(framer: RunFramer, sink: EventSink, options: StreamRunEventsOptions) {
  const afterSeq = options.afterSeq ?? 0;
  let first = true;
  /** The write of `frame`, and whether the stream ends after it. */
  const send = (event: RunEvent, frame: RunFrame, terminal: boolean): Step => {
    // Most writes fit the socket buffer: no promise, no await per subscriber and event.
    const behind = event.seq > afterSeq ? sink.write(frame) : undefined;
    if (behind) return { next: 'wait', until: behind.then(() => (terminal || sink.closed ? DONE : GO_ON)) };
    return terminal || sink.closed ? DONE : GO_ON;
  };
  return (event: RunEvent): Step => {
    // A live run's log is bounded: a Last-Event-ID older than it would go on with a silent gap.
    if (first && afterSeq > 0 && event.seq > afterSeq + 1)
      return { next: 'stop', failure: replayWindowPassed(event, afterSeq) };
    first = false;
    const frame = framer.frame(event);
    const terminal = isTerminalEvent(event);
    if (terminal && options.beforeTerminal)
      return { next: 'wait', until: options.beforeTerminal().then(() => send(event, frame, terminal)) };
    return send(event, frame, terminal);
  };
}

/** Undefined once the terminal event went out or the client left; otherwise why the events stopped. */
async function forward(
  source: AsyncIterable<RunEvent>,
  framer: RunFramer,
  sink: EventSink,
  options: StreamRunEventsOptions,
): Promise<StreamFailure | undefined> {
  const step = createStepper(framer, sink, options);
  try {
    for await (const event of source) {
      let result = step(event);
      while (result.next === 'wait') result = (await result.until) as Step;
      if (result.next === 'stop') return result.failure;
    }
  } catch (error) {
    return toFailure(error);
  }
  return INTERRUPTED;
}

/**
 * The same as forward() for a source that can be read without a promise: each event is written from the
 * publish that brought it, for every subscriber in one synchronous pass. A promise is made only when a
 * client is behind (backpressure) or the terminal event waits for the run's records.
 */
function pump(
  source: SyncRunEventSource,
  framer: RunFramer,
  sink: EventSink,
  options: StreamRunEventsOptions,
): Promise<StreamFailure | undefined> {
  const step = createStepper(framer, sink, options);
  return new Promise((resolve) => {
    let finished = false;
    const finish = (failure: StreamFailure | undefined): void => {
      if (finished) return;
      finished = true;
      source.close();
      resolve(failure);
    };
    const fail = (error: unknown): void => finish(toFailure(error));
    const after = (result: Step): void => {
      if (result.next === 'stop') return finish(result.failure);
      if (result.next === 'wait') return void result.until.then((next) => after(next as Step), fail);
      run();
    };
    const run = (): void => {
      if (finished) return;
      try {
        for (;;) {
          const event = source.take();
          if (event === NOT_YET) return source.onReadable(run);
          if (event === undefined) return finish(INTERRUPTED);
          const result = step(event);
          if (result.next !== 'go-on') return after(result);
        }
      } catch (error) {
        fail(error);
      }
    };
    run();
  });
}

function toFailure(error: unknown): StreamFailure {
  return isAppError(error) ? { code: error.code, message: error.message } : INTERRUPTED;
}

function replayWindowPassed(event: RunEvent, afterSeq: number): StreamFailure {
  const error = createError('replay_window_passed', {
    run_id: event.runId,
    after_seq: String(afterSeq),
    first_seq: String(event.seq),
  });
  return { code: error.code, message: error.message };
}
