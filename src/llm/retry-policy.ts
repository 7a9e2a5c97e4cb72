import { backoffDelay } from '../backoff.js';
import type { UpstreamError } from '../errors.js';

/** Why an attempt failed, as the prompt log, the logs and the metrics name it. */
export type FailureReason =
  | 'connection'
  | 'timeout'
  | 'stalled'
  | 'rate_limited'
  | 'server_error'
  | 'invalid_response'
  | 'stream_error'
  | 'client_error'
  | 'context_length'
  | 'content_policy'
  | 'aborted'
  | 'budget_exhausted';

/**
 * Failures of the upstream, not of the request: another target may well answer. A client error (400, 401, 404,
 * 422) would fail the same way anywhere; the caller's cancel and an exhausted budget end the call.
 */
const MOVES_ON: ReadonlySet<FailureReason> = new Set([
  'connection',
  'timeout',
  'stalled',
  'rate_limited',
  'server_error',
  'invalid_response',
  'stream_error',
]);

/** An upstream failure and, when the upstream said so, how long it asked us to wait. */
export interface UpstreamFailure {
  error: UpstreamError;
  reason: FailureReason;
  retryAfterMs?: number;
  /** What failed, addresses included (API keys never): for the logs, where the error's message has none. */
  detail?: string;
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
  { error, retryAfterMs }: Pick<UpstreamFailure, 'error' | 'retryAfterMs'>,
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

/** What a call does after a failed attempt: the same target again after a delay, the next target, or give up. */
export type NextStep = { kind: 'retry'; delayMs: number } | { kind: 'next' } | { kind: 'stop' };

/**
 * The failover rule (docs/operations.md): a failure of the request itself stops; a retryable one is tried on the
 * same target while its retries last (a 429 moves on at once when another target remains: that one has its own
 * quota); any other upstream failure moves on to the next target, if there is one.
 */
export function decideNextStep(
  failure: UpstreamFailure,
  options: { attempt: number; maxRetries: number; remainingMs: number; settings: RetrySettings; hasNext: boolean },
): NextStep {
  if (!MOVES_ON.has(failure.reason)) return { kind: 'stop' };
  if (!(failure.reason === 'rate_limited' && options.hasNext)) {
    const delayMs = retryDelayMs(failure, options);
    if (delayMs !== undefined) return { kind: 'retry', delayMs };
  }
  return options.hasNext ? { kind: 'next' } : { kind: 'stop' };
}
