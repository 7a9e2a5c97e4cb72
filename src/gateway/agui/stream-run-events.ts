import { isTerminalEvent, type RunEvent } from '../../bus/index.js';
import { isAppError } from '../../errors.js';
import type { StreamEvent } from './agui-event.js';
import type { EventMapper } from './create-event-mapper.js';

/** Where mapped events go: an SSE response or a WebSocket. */
export interface EventSink {
  /** The events one RunEvent became, and that RunEvent's seq (the SSE id). */
  send(events: StreamEvent[], seq?: number): Promise<void>;
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

/**
 * Sends a run's events through `mapper` until the run's terminal event. A source that ends or fails
 * before it (a lost bus connection, a lagging reader) still ends the stream with exactly one error event.
 */
export async function streamRunEvents(source: AsyncIterable<RunEvent>, mapper: EventMapper, sink: EventSink, options: StreamRunEventsOptions = {}): Promise<void> {
  const afterSeq = options.afterSeq ?? 0;
  let failure = { code: 'stream_interrupted', message: 'The run event stream ended before the run did' };
  try {
    for await (const event of source) {
      const events = mapper.map(event);
      if (isTerminalEvent(event)) await options.beforeTerminal?.();
      if (event.seq > afterSeq) await sink.send(events, event.seq);
      if (isTerminalEvent(event) || sink.closed) return;
    }
  } catch (error) {
    if (isAppError(error)) failure = { code: error.code, message: error.message };
  }
  if (!sink.closed) await sink.send(mapper.fail(failure));
}
