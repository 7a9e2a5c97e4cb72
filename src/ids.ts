import { randomFillSync } from 'node:crypto';

export type IdPrefix = 'run' | 'step' | 'mis' | 'tok' | 'ses' | 'req' | 'del' | 'evt' | 'job' | 'task' | 'use' | 'msg' | 'call';

const ID_BYTES = 12;
// A request makes several ids; one randomFillSync per 256 ids instead of one randomBytes each (as randomUUID pools too).
const pool = Buffer.alloc(ID_BYTES * 256);
let poolOffset = pool.length;

/** An opaque id with a type prefix, e.g. `run_3f9c…`: 12 random bytes, hex encoded. */
export function createId(prefix: IdPrefix): string {
  if (poolOffset + ID_BYTES > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const hex = pool.toString('hex', poolOffset, poolOffset + ID_BYTES);
  poolOffset += ID_BYTES;
  return `${prefix}_${hex}`;
}

let lastMs = Number.NaN;
let lastIso = '';

/** ISO 8601 UTC timestamp with milliseconds; the one format stored and returned everywhere. */
export function isoNow(now?: Date): string {
  if (now) return now.toISOString();
  // Every run event is stamped: within one millisecond the text is the same, so it is formatted once.
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

export function isoAfterSeconds(seconds: number, from: Date = new Date()): string {
  return new Date(from.getTime() + seconds * 1000).toISOString();
}
