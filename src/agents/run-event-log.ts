import { isTerminalEvent, type RunEvent, type RunEventBody } from '../bus/index.js';
import { isoNow } from '../ids.js';

export type RunEventListener = (event: RunEvent) => void;

/** A run's ordered events: numbered as they happen, replayed to late readers, closed by the terminal event. */
export interface RunEventLog extends AsyncIterable<RunEvent> {
  emit(body: RunEventBody): RunEvent;
  /** Calls `listener` with every past event, then each new one; returns the unsubscribe function. */
  subscribe(listener: RunEventListener): () => void;
  readonly events: readonly RunEvent[];
  readonly closed: boolean;
}

export function createRunEventLog(runId: string): RunEventLog {
  const events: RunEvent[] = [];
  const listeners = new Set<RunEventListener>();
  let wake: (() => void)[] = [];
  let closed = false;

  const emit = (body: RunEventBody): RunEvent => {
    if (closed) throw new Error(`run ${runId} already ended; cannot emit ${body.type}`);
    const event = { ...body, runId, seq: events.length + 1, at: isoNow() } as RunEvent;
    events.push(event);
    closed = isTerminalEvent(event);
    for (const listener of listeners) listener(event);
    const waiting = wake;
    wake = [];
    for (const resolve of waiting) resolve();
    return event;
  };

  return {
    emit,
    events,
    get closed() {
      return closed;
    },
    subscribe(listener) {
      for (const event of events) listener(event);
      if (closed) return () => undefined;
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async *[Symbol.asyncIterator]() {
      for (let index = 0; ; index += 1) {
        while (index >= events.length) {
          if (closed) return;
          await new Promise<void>((resolve) => wake.push(resolve));
        }
        yield events[index];
      }
    },
  };
}
