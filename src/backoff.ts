/** An exponential backoff: the first delay, the cap, and the growth per retry (2: doubling). */
export interface BackoffSettings {
  initial: number;
  max: number;
  factor?: number;
}

/**
 * The delay before retry `retry` (1 for the first): `initial` grown by `factor` once per retry before it,
 * capped at `max`, in the unit the settings are in. The one backoff formula of the service.
 */
export function backoffDelay(retry: number, { initial, max, factor = 2 }: BackoffSettings): number {
  return Math.min(initial * factor ** Math.max(0, retry - 1), max);
}
