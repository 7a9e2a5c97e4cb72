import { isTerminalEvent, type RunEvent, type RunEventBus, type SubscribeOptions } from '../../bus/index.js';
import { createError, isAppError, type AppError } from '../../errors.js';
import { isoNow } from '../../ids.js';
import { sleep } from '../../sleep.js';
import type { RunStore } from '../records/run.store.js';
import { isActiveRunStatus, type RunRecord } from '../records/run.types.js';

export interface GuardRunEventsDeps {
  store: Pick<RunStore, 'getRun' | 'getEventLog'>;
  bus: Pick<RunEventBus, 'history'>;
  /** How long the bus may stay silent before the run's record is read. Default QUIET_MS. */
  quietMs?: number;
}

/** Often enough that a client whose bus went away learns the run's end within seconds, rare enough to cost nothing. */
export const QUIET_MS = 2000;

/** The stream cannot give the whole answer: the error names where to get it. */
export function eventsLostError(runId: string): AppError {
  return createError('events_lost', { run_id: runId });
}

/**
 * A run's events from the bus, checked: each must follow the one before. A gap (an outage dropped events, a
 * Redis restart lost them), a failed read, a subscription that ends without the terminal event, or a run
 * whose record says it ended while the bus stays silent, hands over to the stored event log once the run
 * ended (it holds every event the run made); what that cannot fill fails with `events_lost`.
 */
export async function* guardRunEvents(
  deps: GuardRunEventsDeps,
  runId: string,
  source: AsyncIterable<RunEvent>,
  { afterSeq = 0, signal }: SubscribeOptions,
  /** Ends the bus subscription when the stored log takes over. */
  stop: () => void,
): AsyncGenerator<RunEvent> {
  const quietMs = deps.quietMs ?? QUIET_MS;
  const iterator = source[Symbol.asyncIterator]();
  const quiet = createQuietWatch(quietMs);
  let cursor = afterSeq;
  let pending: Promise<Outcome> | undefined;
  try {
    for (;;) {
      pending ??= iterator.next().then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      );
      const outcome = await Promise.race([pending, quiet.next]);
      if (signal?.aborted) return;
      if (outcome === QUIET) {
        if (await hasEnded(deps, runId)) break;
        continue;
      }
      pending = undefined;
      quiet.heard();
      // This process leaves (bus.leave): the client attaches again elsewhere, the stored log cannot help it now.
      if ('error' in outcome && isHandOver(outcome.error)) throw outcome.error;
      if ('error' in outcome || outcome.result.done) break;
      const event = outcome.result.value;
      if (!follows(event, cursor)) break;
      yield event;
      cursor = event.seq;
      if (isTerminalEvent(event)) return;
    }
  } finally {
    quiet.stop();
    stop();
  }
  yield* fromStore(deps, runId, cursor, signal, quietMs);
}

/**
 * A finished run's stored events after `afterSeq`, with a terminal event made from its record when the log
 * has none (a run cut short). Where the log cannot go on from `afterSeq`, a run that did not complete ends
 * with its record's error (no answer is given as whole), and a completed one fails with `events_lost`.
 */
export async function* replayStoredEvents(
  events: readonly RunEvent[],
  run: RunRecord,
  { afterSeq = 0, signal }: SubscribeOptions,
): AsyncGenerator<RunEvent> {
  let cursor = afterSeq;
  for (const event of withTerminal(events, run)) {
    if (signal?.aborted) return;
    if (event.seq <= cursor) continue;
    if (!follows(event, cursor)) break;
    yield event;
    cursor = event.seq;
    if (isTerminalEvent(event)) return;
  }
  // A run that ended asking its caller has an answer to give, like a completed one.
  if (run.status === 'completed' || run.status === 'input_required') throw eventsLostError(run.run_id);
  yield terminalOf(run, cursor + 1);
}

function isHandOver(error: unknown): boolean {
  return isAppError(error) && error.code === 'run_handed_over';
}

/** The next seq, or a log that starts afresh (a takeover that lost its earlier events) for a reader that has nothing yet. */
function follows(event: RunEvent, cursor: number): boolean {
  return event.seq === cursor + 1 || (cursor === 0 && event.type === 'run-start');
}

async function* fromStore(
  deps: GuardRunEventsDeps,
  runId: string,
  afterSeq: number,
  signal: AbortSignal | undefined,
  quietMs: number,
): AsyncGenerator<RunEvent> {
  let run = await readRun(deps, runId);
  // The stored log is written with the run's end: until then there is nothing to fill the gap with.
  while (!run || isActiveRunStatus(run.status)) {
    await sleep(quietMs, signal).catch(() => undefined);
    if (signal?.aborted) return;
    run = await readRun(deps, runId);
  }
  const events =
    (await deps.store.getEventLog(runId).catch(() => undefined)) ?? (await deps.bus.history(runId).catch(() => []));
  yield* replayStoredEvents(events, run, { afterSeq, signal });
}

/** A run that ended without its terminal event in the log (it was interrupted) gets one made from its record. */
function withTerminal(events: readonly RunEvent[], run: RunRecord): readonly RunEvent[] {
  const last = events.at(-1);
  if (last && isTerminalEvent(last)) return events;
  return [...events, terminalOf(run, (last?.seq ?? 0) + 1)];
}

/** The terminal event the run's record says it ended with. */
function terminalOf(run: RunRecord, seq: number): RunEvent {
  const common = { runId: run.run_id, seq, at: run.finished_at ?? isoNow() };
  return run.status === 'completed'
    ? { ...common, type: 'run-end', output: run.output ?? '', totalTokens: run.total_tokens, costUsd: run.cost_usd }
    : {
        ...common,
        type: 'run-error',
        code: run.error_code ?? run.status,
        message: run.error_message ?? `The run ended ${run.status}`,
      };
}

async function hasEnded(deps: GuardRunEventsDeps, runId: string): Promise<boolean> {
  const run = await readRun(deps, runId);
  return run !== undefined && !isActiveRunStatus(run.status);
}

// A database out of reach is not an answer: the reader asks again later.
function readRun(deps: GuardRunEventsDeps, runId: string): Promise<RunRecord | undefined> {
  return deps.store.getRun(runId).catch(() => undefined);
}

const QUIET = Symbol('quiet');

type Outcome = { result: IteratorResult<RunEvent> } | { error: unknown };

/**
 * `next` resolves to QUIET once a whole period passed with no event heard: one timer per reader, not one per
 * event (a thousand readers of a run each get every event).
 */
function createQuietWatch(periodMs: number) {
  let heard = false;
  let wake: (() => void) | undefined;
  const arm = () => new Promise<typeof QUIET>((resolve) => (wake = () => resolve(QUIET)));
  const watch = {
    next: arm(),
    heard: () => void (heard = true),
    stop: () => clearInterval(timer),
  };
  const timer = setInterval(() => {
    if (!heard) {
      wake?.();
      watch.next = arm();
    }
    heard = false;
  }, periodMs);
  timer.unref();
  return watch;
}
