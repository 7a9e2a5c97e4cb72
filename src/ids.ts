import { randomBytes } from 'node:crypto';

export type IdPrefix = 'run' | 'step' | 'mis' | 'tok' | 'ses' | 'req' | 'del' | 'evt' | 'job' | 'task' | 'use' | 'msg' | 'call';

/** An opaque id with a type prefix, e.g. `run_3f9c…`: 12 random bytes, hex encoded. */
export function createId(prefix: IdPrefix): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

/** ISO 8601 UTC timestamp with milliseconds; the one format stored and returned everywhere. */
export function isoNow(now: Date = new Date()): string {
  return now.toISOString();
}

export function isoAfterSeconds(seconds: number, from: Date = new Date()): string {
  return new Date(from.getTime() + seconds * 1000).toISOString();
}
