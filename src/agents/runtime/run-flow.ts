import type { RunEvent, RunEventBody } from '../../bus/index.js';

/**
 * How far a run may run ahead of the client that reads its handle: past this many events or bytes not yet
 * taken, the model step stops reading the upstream until the client catches up. Well inside the bus's
 * 1,000-event log, so the client never falls out of it. The reader is in this process and takes an event
 * as soon as its socket accepts it, so the window only covers that hop; what the network holds is the
 * client backlog's (CLIENT_BACKLOG_BYTES). 64 KiB, not 256: a stalled client's run kept the difference as
 * text (bench/HISTORY.md, optimisation log).
 */
export const FLOW_WINDOW = { events: 256, bytes: 64 * 1024 };

/**
 * Flow control between a run and the clients that stream its handle (the direct client of a chat
 * completion, an AG-UI run, a WebSocket). Attached subscribers read the bus and never hold the run back.
 */
export interface RunFlow {
  /** Counts an event that reached the bus. */
  published(body: RunEventBody): void;
  /** Undefined while every holding reader is within the window; else resolves once they are, or `signal` aborts. */
  ready(signal: AbortSignal): Promise<void> | undefined;
  /** The run's events as `source` gives them, counted as the reader takes them: the run waits for this reader. */
  hold(source: AsyncIterable<RunEvent>): AsyncGenerator<RunEvent>;
}

interface Position {
  events: number;
  bytes: number;
}

export function createRunFlow(window: Position = FLOW_WINDOW): RunFlow {
  const produced: Position = { events: 0, bytes: 0 };
  const readers = new Set<Position>();
  let wake: (() => void) | undefined;

  const behind = () => {
    for (const reader of readers)
      if (produced.events - reader.events > window.events || produced.bytes - reader.bytes > window.bytes) return true;
    return false;
  };
  const check = () => {
    if (wake && !behind()) wake();
  };

  return {
    published(body) {
      produced.events += 1;
      produced.bytes += sizeOf(body);
    },
    ready(signal) {
      if (!behind() || signal.aborted) return undefined;
      return new Promise<void>((resolve) => {
        const done = () => {
          wake = undefined;
          signal.removeEventListener('abort', done);
          resolve();
        };
        wake = done;
        signal.addEventListener('abort', done, { once: true });
      });
    },
    async *hold(source) {
      const reader: Position = { events: 0, bytes: 0 };
      readers.add(reader);
      try {
        for await (const event of source) {
          yield event;
          // The reader asked for the next event: it is done with this one (written, or waited out).
          reader.events += 1;
          reader.bytes += sizeOf(event);
          check();
        }
      } finally {
        readers.delete(reader);
        check();
      }
    },
  };
}

function sizeOf(body: RunEventBody): number {
  switch (body.type) {
    case 'text-delta':
      return body.delta.length;
    case 'tool-call':
      return body.arguments.length;
    case 'tool-result':
      return body.result.length;
    default:
      return 0;
  }
}
