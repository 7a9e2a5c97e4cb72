import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisRateLimitCounter, type SharedRateLimitCounter } from '../../src/bus/index.js';
import { redisUnavailable, TEST_REDIS_URL } from '../support/redis.js';

const skip = await redisUnavailable();

describe.skipIf(skip !== undefined)(`rate-limit counters in Redis${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let a: SharedRateLimitCounter;
  let b: SharedRateLimitCounter;
  const keyPrefix = `agent-gateway-test:${randomBytes(4).toString('hex')}:`;

  beforeAll(() => {
    const options = { redisUrl: TEST_REDIS_URL, windowMs: 60_000, keyPrefix, onError: () => undefined };
    a = createRedisRateLimitCounter(options);
    b = createRedisRateLimitCounter(options);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('two connections taking 40 requests at once against a limit of 5 get exactly 5', async () => {
    const check = { key: 'agent:x:requests', limit: 5, kind: 'requests' as const };
    const takes = await Promise.all(Array.from({ length: 40 }, (_, index) => (index % 2 ? a : b).take([check])));
    expect(takes.filter((take) => take.refused === undefined)).toHaveLength(5);
    const refused = takes.find((take) => take.refused !== undefined)!;
    expect(refused.windows[0].used).toBe(5);
    expect(refused.windows[0].resetMs).toBeGreaterThan(0);
    expect(refused.windows[0].resetMs).toBeLessThanOrEqual(60_000);
  });

  it('a take refused by one limit counts on none, and model tokens added on one are seen on the other', async () => {
    const token = { key: 'token:t:requests', limit: 10, kind: 'requests' as const };
    const tokens = { key: 'token:t:tokens', limit: 20, kind: 'tokens' as const };
    expect((await a.take([token, tokens])).refused).toBeUndefined();
    await a.add(['token:t:tokens'], 25);
    const refused = await b.take([token, tokens]);
    expect(refused.refused).toBe(1);
    expect(refused.windows.map((window) => window.used)).toEqual([1, 25]);
  });
});
