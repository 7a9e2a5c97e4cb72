import { isSyncRunEventSource, type RunEvent, type RunEventBus, type SubscribeOptions } from '../../bus/index.js';
import type { RunStore } from '../records/run.store.js';
import { isActiveRunStatus } from '../records/run.types.js';
import { guardRunEvents, replayStoredEvents } from './guard-run-events.js';
import type { LiveRun } from './run-handle.js';

export interface AttachRunDeps {
  live: ReadonlyMap<string, LiveRun>;
  store: RunStore;
  bus: RunEventBus;
}

export type AttachOptions = SubscribeOptions;

/**
 * A run's past events, then live ones, ending after the terminal event. A run that has not ended is
 * read from the bus (whichever process executes it), checked for gaps and falling back to the stored log
 * (guardRunEvents); an ended one from its persisted log, so the replay outlives the bus's retention.
 * Undefined for an unknown run.
 */
export async function attachRun(
  deps: AttachRunDeps,
  runId: string,
  options: AttachOptions = {},
): Promise<AsyncIterable<RunEvent> | undefined> {
  if (deps.live.has(runId)) return subscribe(deps, runId, options);
  const run = await deps.store.getRun(runId);
  if (!run) return undefined;
  if (isActiveRunStatus(run.status)) return subscribe(deps, runId, options);
  // The log is written with the run's end, so it is missing only for runs cut short (interrupted) or a failed write.
  const events = (await deps.store.getEventLog(runId)) ?? (await deps.bus.history(runId).catch(() => []));
  return replayStoredEvents(events, run, options);
}

/**
 * A log in this process's memory, fed by the run's own publisher, has no gap and no outage: it is read as it is
 * (synchronously, for the AG-UI fan-out). Anything else came over the bus from elsewhere and is checked.
 */
function subscribe(deps: AttachRunDeps, runId: string, options: AttachOptions): AsyncIterable<RunEvent> {
  const reading = new AbortController();
  const { signal } = options;
  const stop = () => reading.abort();
  if (signal?.aborted) stop();
  else signal?.addEventListener('abort', stop, { once: true });
  const source = deps.bus.subscribe(runId, { afterSeq: options.afterSeq, signal: reading.signal });
  if (isSyncRunEventSource(source)) return source;
  return guardRunEvents(deps, runId, source, options, () => {
    signal?.removeEventListener('abort', stop);
    stop();
  });
}
