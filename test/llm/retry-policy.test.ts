import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/errors.js';
import { DEFAULT_RETRY_SETTINGS, parseRetryAfterMs, retryDelayMs } from '../../src/llm/retry-policy.js';

const retryable = new UpstreamError({ message: 'x', retryable: true, upstreamStatus: 503 });

describe('retry policy', () => {
  it('reads Retry-After as seconds, as an HTTP date, and retry-after-ms', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfterMs({ 'retry-after': '3' }, now)).toBe(3000);
    expect(parseRetryAfterMs({ 'Retry-After': 'Thu, 01 Jan 2026 00:00:07 GMT' }, now)).toBe(7000);
    expect(parseRetryAfterMs({ 'retry-after': 'Wed, 31 Dec 2025 23:00:00 GMT' }, now)).toBe(0);
    expect(parseRetryAfterMs({ 'retry-after-ms': '250', 'retry-after': '1' }, now)).toBe(250);
    expect(parseRetryAfterMs({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(parseRetryAfterMs(undefined, now)).toBeUndefined();
  });

  it('backs off exponentially with jitter, within bounds', () => {
    const settings = { ...DEFAULT_RETRY_SETTINGS, baseDelayMs: 100, maxDelayMs: 1000 };
    for (const [attempt, max] of [
      [0, 100],
      [1, 200],
      [2, 400],
      [5, 1000],
    ] as const) {
      const delay = retryDelayMs({ error: retryable }, { attempt, maxRetries: 10, remainingMs: 60_000, settings });
      expect(delay).toBeGreaterThanOrEqual(max / 2);
      expect(delay).toBeLessThanOrEqual(max);
    }
  });

  it('does not retry when not retryable, out of retries, over the Retry-After cap or past the deadline', () => {
    const base = { attempt: 0, maxRetries: 2, remainingMs: 60_000, settings: DEFAULT_RETRY_SETTINGS };
    expect(retryDelayMs({ error: new UpstreamError({ message: 'x', retryable: false }) }, base)).toBeUndefined();
    expect(retryDelayMs({ error: retryable }, { ...base, attempt: 2 })).toBeUndefined();
    expect(
      retryDelayMs({ error: retryable, retryAfterMs: DEFAULT_RETRY_SETTINGS.maxRetryAfterMs + 1 }, base),
    ).toBeUndefined();
    expect(retryDelayMs({ error: retryable, retryAfterMs: 5000 }, { ...base, remainingMs: 4000 })).toBeUndefined();
    expect(retryDelayMs({ error: retryable, retryAfterMs: 5000 }, base)).toBe(5000);
  });
});
