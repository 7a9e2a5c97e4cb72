import type { RunEvent, RunEventBody, RunEventBus } from '../../src/bus/index.js';

export const runStart: RunEventBody = {
  type: 'run-start',
  agentName: 'helper',
  model: 'upstream/m',
  source: 'chat',
  sessionId: null,
};
export const runEnd: RunEventBody = { type: 'run-end', output: 'done', totalTokens: 3, costUsd: 0 };

export function delta(text: string): RunEventBody {
  return { type: 'text-delta', delta: text };
}

/** Publishes run-start, `count` deltas (d1, d2, …) and, unless told otherwise, run-end. */
export async function publishRun(bus: RunEventBus, runId: string, count: number, end = true): Promise<void> {
  await bus.publish(runId, runStart);
  for (let i = 1; i <= count; i += 1) await bus.publish(runId, delta(`d${i}`));
  if (end) await bus.publish(runId, runEnd);
}

export async function collect(
  events: AsyncIterable<RunEvent>,
  onEvent?: (event: RunEvent) => void,
): Promise<RunEvent[]> {
  const seen: RunEvent[] = [];
  for await (const event of events) {
    seen.push(event);
    onEvent?.(event);
  }
  return seen;
}

export function seqs(events: RunEvent[]): number[] {
  return events.map((event) => event.seq);
}

export function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** Lets pending I/O and timers run (never used to assert a duration). */
export function tick(ms = 1): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
