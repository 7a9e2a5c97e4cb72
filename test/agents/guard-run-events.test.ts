import { describe, expect, it } from 'vitest';
import { guardRunEvents, replayStoredEvents } from '../../src/agents/control/guard-run-events.js';
import type { RunRecord } from '../../src/agents/records/run.types.js';
import type { RunEvent, RunEventBody } from '../../src/bus/index.js';
import { isAppError } from '../../src/errors.js';

const RUN_ID = 'run_guarded';
const WORDS = ['The ', 'whole ', 'answer'];

const event = (seq: number, body: RunEventBody): RunEvent => ({
  ...body,
  runId: RUN_ID,
  seq,
  at: '2026-01-01T00:00:00Z',
});

/** run-start, step-start, three deltas, run-end: seq 1..6. */
const LOG: RunEvent[] = [
  event(1, { type: 'run-start', agentName: 'helper', model: 'm', source: 'chat', sessionId: null }),
  event(2, { type: 'step-start', stepId: 's1', stepIndex: 0, kind: 'model' }),
  ...WORDS.map((delta, index) => event(3 + index, { type: 'text-delta', delta })),
  event(6, { type: 'run-end', output: WORDS.join(''), totalTokens: 3, costUsd: 0 }),
];

const record = (status: RunRecord['status']) =>
  ({ run_id: RUN_ID, status, output: WORDS.join(''), total_tokens: 3, cost_usd: 0 }) as RunRecord;

/** A store whose run reads `running` for its first `runningReads` reads, then `completed`, with `log` stored. */
function fakeStore(log: RunEvent[] | undefined, runningReads = 0) {
  let reads = 0;
  return {
    getRun: async () => record((reads += 1) <= runningReads ? 'running' : 'completed'),
    getEventLog: async () => log,
  };
}

/** The bus's events, then (when `then` is given) a failure, or else silence until the subscription is stopped. */
function busSource(events: RunEvent[], then?: Error) {
  const stopped = new AbortController();
  async function* source(): AsyncGenerator<RunEvent> {
    yield* events;
    if (then) throw then;
    await new Promise((resolve) => stopped.signal.addEventListener('abort', resolve));
  }
  return { source: source(), stop: () => stopped.abort(), stopped: stopped.signal };
}

async function read(source: AsyncIterable<RunEvent>): Promise<{ events: RunEvent[]; error?: unknown }> {
  const events: RunEvent[] = [];
  try {
    for await (const item of source) events.push(item);
    return { events };
  } catch (error) {
    return { events, error };
  }
}

const textOf = (events: RunEvent[]) => events.map((item) => (item.type === 'text-delta' ? item.delta : '')).join('');
const bus = { history: async () => [] };
const guard = (store: ReturnType<typeof fakeStore>, feed: ReturnType<typeof busSource>, afterSeq = 0) =>
  guardRunEvents({ store, bus, quietMs: 5 }, RUN_ID, feed.source, { afterSeq }, feed.stop);

describe('events that came over the bus, checked', () => {
  it('fill a gap from the stored log once the run ended, and stop reading the bus', async () => {
    const feed = busSource([LOG[0], LOG[1], LOG[2], LOG[4]]);
    const { events, error } = await read(guard(fakeStore(LOG, 3), feed));
    expect(error).toBeUndefined();
    expect(events.map((item) => item.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(textOf(events)).toBe('The whole answer');
    expect(feed.stopped.aborted).toBe(true);
  });

  it('end with events_lost, naming where the whole answer is, when the stored log cannot fill the gap', async () => {
    const feed = busSource([LOG[0], LOG[1], LOG[2], LOG[4]]);
    const stored = LOG.filter((item) => item.seq !== 4);
    const { events, error } = await read(guard(fakeStore(stored), feed));
    expect(textOf(events)).toBe('The ');
    expect(isAppError(error) && error.code).toBe('events_lost');
    expect((error as Error).message).toContain(`GET /api/v1/admin/runs/${RUN_ID}`);
  });

  it('fall back to the store when the bus stays silent after the run ended (its end never reached the bus)', async () => {
    const feed = busSource(LOG.slice(0, 3));
    const { events } = await read(guard(fakeStore(LOG, 2), feed));
    expect(textOf(events)).toBe('The whole answer');
    expect(events.at(-1)?.type).toBe('run-end');
  });

  it('fall back to the store after a failed bus read', async () => {
    const feed = busSource(LOG.slice(0, 3), new Error('Connection is closed.'));
    const { events, error } = await read(guard(fakeStore(LOG, 1), feed));
    expect(error).toBeUndefined();
    expect(textOf(events)).toBe('The whole answer');
  });

  it('take a gap at the start of a Last-Event-ID reconnect as one', async () => {
    const feed = busSource(LOG.slice(3));
    const { events } = await read(guard(fakeStore(LOG), feed, 2));
    expect(events.map((item) => item.seq)).toEqual([3, 4, 5, 6]);
  });

  it('accept a log that starts afresh (a takeover that lost its earlier events) for a reader that has nothing yet', async () => {
    const fresh = LOG.map((item) => ({ ...item, seq: item.seq + 1_000_000 }));
    const { events } = await read(guard(fakeStore(fresh), busSource(fresh)));
    expect(events.map((item) => item.seq)).toEqual(fresh.map((item) => item.seq));
  });
});

describe('a finished run replayed from the store', () => {
  it("ends with the run's own error when a failed run's log cannot go on from the reader's position", async () => {
    const failed = { ...record('failed'), error_code: 'interrupted', error_message: 'The server stopped' };
    const { events, error } = await read(replayStoredEvents([LOG[0]], failed, { afterSeq: 4 }));
    expect(error).toBeUndefined();
    expect(events).toEqual([expect.objectContaining({ type: 'run-error', code: 'interrupted', seq: 5 })]);
  });

  it('fails with events_lost on a hole in its log rather than replay part of the answer as whole', async () => {
    const { events, error } = await read(
      replayStoredEvents(
        LOG.filter((item) => item.seq !== 4),
        record('completed'),
        {},
      ),
    );
    expect(textOf(events)).toBe('The ');
    expect(isAppError(error) && error.code).toBe('events_lost');
  });
});
