import type { RunEvent } from '../../bus/index.js';

/**
 * The events of a run's earlier attempts that a takeover can go on from: from the last `run-start` in the
 * bus's log to its end, when nothing is missing in between. Undefined when the log lost events (a Redis that
 * restarted empty, publishes an outage dropped, a log trimmed past its start): the takeover then starts its
 * log afresh, so that what it stores and publishes is whole in itself.
 */
export function findEarlierEvents(history: readonly RunEvent[]): RunEvent[] | undefined {
  const start = history.findLastIndex((event) => event.type === 'run-start');
  if (start < 0) return undefined;
  const events = history.slice(start);
  for (let i = 1; i < events.length; i += 1) if (events[i].seq !== events[i - 1].seq + 1) return undefined;
  return events;
}

/**
 * The text a reader of `events` holds: its text deltas, less what a `step-restarted` dropped, and less the
 * text of the step `restarting` (about to be made again) when given.
 */
export function textOfEvents(events: readonly RunEvent[], restarting?: number): string {
  let text = '';
  const stepStarts = new Map<number, number>();
  for (const event of events) {
    if (event.type === 'step-start') stepStarts.set(event.stepIndex, text.length);
    else if (event.type === 'text-delta') text += event.delta;
    else if (event.type === 'step-restarted') text = text.slice(0, stepStarts.get(event.stepIndex) ?? text.length);
  }
  return restarting === undefined ? text : text.slice(0, stepStarts.get(restarting) ?? text.length);
}
