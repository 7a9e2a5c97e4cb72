import { isTerminalEvent, type RunEvent, type RunEventBus, type SubscribeOptions } from '../../bus/index.js';
import { isoNow } from '../../ids.js';
import type { LiveRun } from './run-handle.js';
import type { RunStore } from '../records/run.store.js';
import { isActiveRunStatus, type RunRecord } from '../records/run.types.js';

export interface AttachRunDeps {
  live: ReadonlyMap<string, LiveRun>;
  store: RunStore;
  bus: RunEventBus;
}

export type AttachOptions = SubscribeOptions;

/**
 * A run's past events, then live ones, ending after the terminal event. A run that has not ended is
 * read from the bus (whichever process executes it); an ended one from its persisted log, so the replay
 * outlives the bus's retention. Undefined for an unknown run.
 */
export async function attachRun(
  deps: AttachRunDeps,
  runId: string,
  options: AttachOptions = {},
): Promise<AsyncIterable<RunEvent> | undefined> {
  if (deps.live.has(runId)) return deps.bus.subscribe(runId, options);
  const run = await deps.store.getRun(runId);
  if (!run) return undefined;
  if (isActiveRunStatus(run.status)) return deps.bus.subscribe(runId, options);
  // The log is written with the run's end, so it is missing only for runs cut short (interrupted) or a failed write.
  const events = (await deps.store.getEventLog(runId)) ?? (await deps.bus.history(runId).catch(() => []));
  return replay(withTerminal(events, run), options);
}

/** A run that ended without its terminal event in the log (it was interrupted) gets one made from its record. */
function withTerminal(events: RunEvent[], run: RunRecord): RunEvent[] {
  const last = events.at(-1);
  if (last && isTerminalEvent(last)) return events;
  const common = { runId: run.run_id, seq: (last?.seq ?? 0) + 1, at: run.finished_at ?? isoNow() };
  const terminal: RunEvent =
    run.status === 'completed'
      ? { ...common, type: 'run-end', output: run.output ?? '', totalTokens: run.total_tokens, costUsd: run.cost_usd }
      : {
          ...common,
          type: 'run-error',
          code: run.error_code ?? run.status,
          message: run.error_message ?? `The run ended ${run.status}`,
        };
  return [...events, terminal];
}

async function* replay(events: RunEvent[], { afterSeq = 0, signal }: AttachOptions): AsyncGenerator<RunEvent> {
  for (const event of events) {
    if (signal?.aborted) return;
    if (event.seq > afterSeq) yield event;
  }
}
