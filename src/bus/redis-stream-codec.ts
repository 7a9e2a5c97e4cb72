import type { RunEvent, RunEventBody } from './events.js';

/** A stream entry as ioredis returns it from XRANGE / XREAD: [id, [field, value, ...]]. */
export type StreamEntry = [id: string, fields: string[]];

/** The one field of every entry: the body and `at` as JSON (runId is in the key, seq is the entry id). */
const EVENT_FIELD = 'e';

export function encodeStreamFields(body: RunEventBody, at: string): [string, string] {
  return [EVENT_FIELD, JSON.stringify({ at, ...body })];
}

/**
 * Entry ids are `0-<seq>`, the seq the run's publisher gave the event (XADD with `0-*` when none was given:
 * after the stream's last entry).
 */
export function seqFromStreamId(id: string): number {
  return Number(id.slice(id.indexOf('-') + 1));
}

export function streamIdFromSeq(seq: number): string {
  return `0-${seq}`;
}

export function decodeStreamEntry(runId: string, [id, fields]: StreamEntry): RunEvent {
  const index = fields.indexOf(EVENT_FIELD);
  const event = JSON.parse(fields[index + 1] ?? '{}') as RunEvent;
  event.runId = runId;
  event.seq = seqFromStreamId(id);
  return event;
}

export interface RedisKeys {
  events(runId: string): string;
  runIdOf(eventsKey: string): string;
  controlChannel: string;
}

export function createRedisKeys(prefix: string): RedisKeys {
  const head = `${prefix}run:`;
  const tail = ':events';
  return {
    events: (runId) => `${head}${runId}${tail}`,
    runIdOf: (key) => key.slice(head.length, key.length - tail.length),
    controlChannel: `${prefix}run-control`,
  };
}
