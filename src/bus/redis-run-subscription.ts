import { isTerminalEvent, type RunEvent } from './events.js';
import type { RedisRunStream } from './redis-run-stream.js';
import type { RedisStreamTailer, RunTail } from './redis-stream-tailer.js';
import type { SubscribeOptions } from './run-event-bus.js';
import { createSubscriberLagError } from './subscriber-lag-error.js';

export interface RedisRunSubscriptionDeps {
  stream: RedisRunStream;
  tailer: RedisStreamTailer;
  logLimit: number;
}

/** True when the tail's local window holds (or will receive) the event right after `cursor`. */
function reaches(tail: RunTail, cursor: number): boolean {
  return tail.log !== undefined && tail.log.firstAvailableSeq <= cursor + 1;
}

/**
 * The past from the Redis stream, then live events from this process's shared tail. Every step continues
 * from the last seq delivered, so the hand-over has no gap and no duplicate whatever runs concurrently.
 */
export async function* subscribeToRedisRun(
  deps: RedisRunSubscriptionDeps,
  runId: string,
  { afterSeq = 0, signal }: SubscribeOptions = {},
): AsyncGenerator<RunEvent> {
  const { stream, tailer, logLimit } = deps;
  const tail = tailer.acquire(runId);
  try {
    let cursor = afterSeq;
    if (!reaches(tail, cursor)) {
      const past = await stream.newestAfter(runId, cursor);
      if (signal?.aborted) return;
      if (past.length === 0) {
        // Resuming after the terminal event: nothing will ever follow, so do not wait for it.
        const last = await stream.last(runId);
        if (last && isTerminalEvent(last) && last.seq <= cursor) return;
      }
      // Live reading starts exactly where this read of the past ended.
      if (!tail.log) tailer.start(tail, past.at(-1)?.seq ?? cursor);
      for (const event of past) {
        yield event;
        cursor = event.seq;
        if (isTerminalEvent(event) || signal?.aborted) return;
      }
      // Another subscriber may have started the tail further on than our read of the past reached.
      while (!reaches(tail, cursor)) {
        const missing = await stream.between(runId, cursor, tail.log!.firstAvailableSeq - 1);
        if (signal?.aborted) return;
        if (missing[0]?.seq !== cursor + 1) throw createSubscriberLagError(runId, logLimit);
        for (const event of missing) {
          yield event;
          cursor = event.seq;
          if (isTerminalEvent(event) || signal?.aborted) return;
        }
      }
    }
    yield* tail.log!.read(cursor, signal);
  } finally {
    tailer.release(tail);
  }
}
