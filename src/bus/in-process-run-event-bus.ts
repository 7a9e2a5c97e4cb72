import { UnavailableError } from '../errors.js';
import { isoNow } from '../ids.js';
import { ControlHandlers } from './control-handlers.js';
import { isTerminalEvent, toRunEvent, type RunEvent, type RunEventBody } from './events.js';
import { RunLog } from './run-log.js';
import {
  DEFAULT_LOG_LIMIT,
  type RunControlCommand,
  type RunEventBus,
  type RunEventBusOptions,
  type SubscribeOptions,
} from './run-event-bus.js';

export type InProcessRunEventBusOptions = Pick<RunEventBusOptions, 'logLimit' | 'retentionMs' | 'onError'>;

/**
 * A finished run's log is persisted with the run's end, and attach reads the stored copy from then on; the
 * copy in memory only has to bridge the moment between the terminal event and that write. Keeping it for
 * minutes held tens of thousands of finished runs in memory under load.
 */
export const IN_PROCESS_RETENTION_MS = 10_000;

interface RunEntry {
  log: RunLog;
  readers: number;
  expiry?: NodeJS.Timeout;
}

/** The embedded bus: one bounded log per run in memory; control commands reach this process only. */
export function createInProcessRunEventBus(options: InProcessRunEventBusOptions = {}): RunEventBus {
  const logLimit = options.logLimit ?? DEFAULT_LOG_LIMIT;
  const retentionMs = options.retentionMs ?? IN_PROCESS_RETENTION_MS;
  const runs = new Map<string, RunEntry>();
  const control = new ControlHandlers(options.onError ?? (() => undefined));
  let closed = false;

  function entryFor(runId: string): RunEntry {
    let entry = runs.get(runId);
    if (!entry) {
      entry = { log: new RunLog(runId, logLimit), readers: 0 };
      runs.set(runId, entry);
    }
    return entry;
  }

  // Memory stays flat: a finished run's log lives for retentionMs, then only persisted copies remain.
  function scheduleExpiry(runId: string, entry: RunEntry): void {
    clearTimeout(entry.expiry);
    entry.expiry = setTimeout(() => {
      if (runs.get(runId) === entry) runs.delete(runId);
    }, retentionMs);
    entry.expiry.unref();
  }

  function assertOpen(): void {
    if (closed) throw new UnavailableError('The run event bus is closed', 'bus_closed');
  }

  function subscribe(runId: string, subscribeOptions: SubscribeOptions = {}): AsyncIterable<RunEvent> {
    const entry = runs.get(runId);
    // A run nobody published to yet gets its entry on the first read, as before, so a subscription that is
    // never read leaves nothing behind; a closed bus fails that first read, not the call.
    if (closed || !entry) return subscribeLater(runId, subscribeOptions);
    return readerOf(runId, entry, subscribeOptions);
  }

  async function* subscribeLater(runId: string, subscribeOptions: SubscribeOptions): AsyncGenerator<RunEvent> {
    assertOpen();
    yield* readerOf(runId, entryFor(runId), subscribeOptions);
  }

  /** The log's own reader: readable without a promise per event (the AG-UI fan-out's synchronous pass). */
  function readerOf(runId: string, entry: RunEntry, subscribeOptions: SubscribeOptions): AsyncIterable<RunEvent> {
    return entry.log.read(subscribeOptions.afterSeq ?? 0, subscribeOptions.signal, {
      onStart: () => (entry.readers += 1),
      onEnd: () => {
        entry.readers -= 1;
        // A reader waiting on a run that never published must not leave an empty entry behind.
        if (entry.readers === 0 && entry.log.lastSeq === 0 && runs.get(runId) === entry) runs.delete(runId);
      },
    });
  }

  return {
    logLimit,
    async publish(runId: string, body: RunEventBody, seq?: number, at?: string): Promise<RunEvent> {
      assertOpen();
      const entry = entryFor(runId);
      const event = toRunEvent(body, runId, seq ?? entry.log.lastSeq + 1, at ?? isoNow());
      entry.log.push(event);
      if (isTerminalEvent(event)) scheduleExpiry(runId, entry);
      return event;
    },
    subscribe,
    async history(runId: string): Promise<RunEvent[]> {
      return runs.get(runId)?.log.snapshot() ?? [];
    },
    async sendControl(runId: string, command: RunControlCommand): Promise<void> {
      assertOpen();
      control.dispatch(runId, command);
    },
    onControl: (handler) => control.add(handler),
    async ping(): Promise<boolean> {
      return !closed;
    },
    leave(error: Error): void {
      for (const entry of runs.values()) entry.log.fail(error);
    },
    async close(): Promise<void> {
      closed = true;
      for (const entry of runs.values()) {
        clearTimeout(entry.expiry);
        entry.log.close();
      }
      runs.clear();
      control.clear();
    },
  };
}
