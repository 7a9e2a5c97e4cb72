import { isTerminalEvent, type RunEvent } from '../../bus/index.js';
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
    const failure = await forward(source, framer, sink, options);
    if (failure && !sink.closed) await sink.write(framer.fail(failure));
  } finally {
    framer.release();
  }
}

/** Undefined once the terminal event went out or the client left; otherwise why the events stopped. */
async function forward(
  source: AsyncIterable<RunEvent>,
  framer: RunFramer,
  sink: EventSink,
  options: StreamRunEventsOptions,
): Promise<StreamFailure | undefined> {
  const afterSeq = options.afterSeq ?? 0;
  let first = true;
  try {
    for await (const event of source) {
      // A live run's log is bounded: a Last-Event-ID older than it would go on with a silent gap.
      if (first && afterSeq > 0 && event.seq > afterSeq + 1) return replayWindowPassed(event, afterSeq);
      first = false;
      const frame = framer.frame(event);
      const terminal = isTerminalEvent(event);
      if (terminal && options.beforeTerminal) await options.beforeTerminal();
      if (event.seq > afterSeq) {
        // Most writes fit the socket buffer: no promise, no await per subscriber and event.
        const behind = sink.write(frame);
        if (behind) await behind;
      }
      if (terminal || sink.closed) return undefined;
    }
  } catch (error) {
    return isAppError(error) ? { code: error.code, message: error.message } : INTERRUPTED;
  }
  return INTERRUPTED;
}

function replayWindowPassed(event: RunEvent, afterSeq: number): StreamFailure {
  const error = createError('replay_window_passed', {
    run_id: event.runId,
    after_seq: String(afterSeq),
    first_seq: String(event.seq),
  });
  return { code: error.code, message: error.message };
}
