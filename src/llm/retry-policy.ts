import { backoffDelay } from '../backoff.js';
import type { UpstreamError } from '../errors.js';

/** An upstream failure and, when the upstream said so, how long it asked us to wait. */
export interface UpstreamFailure {
  error: UpstreamError;
  retryAfterMs?: number;
}

export interface RetrySettings {
  /** First backoff delay; each retry doubles it, with jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error (with retryAfterSeconds) goes to the caller. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_SETTINGS: RetrySettings = { baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 20_000 };

/** Reads `retry-after-ms` (OpenAI) or `retry-after` (seconds or an HTTP date, RFC 9110 §10.2.3) into milliseconds. */
export function parseRetryAfterMs(headers: Record<string, string> | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  const milliseconds = Number(lower['retry-after-ms']);
  if (lower['retry-after-ms'] && Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const value = lower['retry-after']?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * How long to wait before retry number `attempt + 1`, or undefined when the error must not be retried
 * (not retryable, retries used up, Retry-After over the cap, or the wait would run past the deadline).
 */
export function retryDelayMs(
  { error, retryAfterMs }: UpstreamFailure,
  options: { attempt: number; maxRetries: number; remainingMs: number; settings: RetrySettings },
): number | undefined {
  const { attempt, maxRetries, remainingMs, settings } = options;
  if (!error.retryable || attempt >= maxRetries) return undefined;
  let delay: number;
  if (retryAfterMs !== undefined) {
    delay = retryAfterMs;
    if (delay > settings.maxRetryAfterMs) return undefined;
  } else {
    const exponential = backoffDelay(attempt + 1, { initial: settings.baseDelayMs, max: settings.maxDelayMs });
    delay = exponential / 2 + Math.random() * (exponential / 2);
  }
  return delay < remainingMs ? delay : undefined;
}
