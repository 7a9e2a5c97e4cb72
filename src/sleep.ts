import { setTimeout as wait } from 'node:timers/promises';

/** Waits `ms`; rejects with the signal's reason as soon as it aborts. */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await wait(ms, undefined, { signal });
  } catch (error) {
    throw signal?.aborted ? signal.reason : error;
  }
}

/** Waits `ms`, or less when the signal aborts; never rejects (a loop then sees its signal and stops). */
export function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  return sleep(ms, signal).catch(() => undefined);
}
