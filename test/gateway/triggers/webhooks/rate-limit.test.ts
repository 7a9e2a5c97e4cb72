import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfigText } from '../../../../src/config/index.js';
import { BASE_YAML, startTestApp, TEST_API_KEY, type TestApp } from '../../../support/app.js';
import { redisUnavailable, TEST_REDIS_URL } from '../../../support/redis.js';
import { hmacHex } from './signing.js';

const SECRET = 'rate-limit-webhook-secret';
const webhook = (name: string, rateLimit?: string) =>
  `  - { name: ${name}, verification: hmac-sha256, secret: ${SECRET}${rateLimit ? `, rate_limit: ${rateLimit}` : ''} }`;

async function deliver(app: TestApp, name: string, options: { sign?: boolean } = {}) {
  const body = JSON.stringify({ type: 'thing.happened', nonce: randomBytes(8).toString('hex') });
  const signature = options.sign === false ? 'bad'.repeat(20) : hmacHex(body, SECRET);
  const response = await fetch(`${app.url}/webhooks/${name}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-signature': signature },
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

async function storedFor(app: TestApp, name: string): Promise<number> {
  const response = await fetch(`${app.url}/api/v1/admin/triggers/deliveries?kind=webhook&limit=200`, {
    headers: { authorization: `Bearer ${TEST_API_KEY}` },
  });
  return ((await response.json()) as { trigger: string }[]).filter((delivery) => delivery.trigger === name).length;
}

describe('per-webhook rate limit, counted in memory', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(`${BASE_YAML}
webhooks:
${webhook('limited', '{ max: 3, time_window_seconds: 60 }')}
${webhook('neighbour', '{ max: 3, time_window_seconds: 60 }')}
${webhook('unlimited', 'false')}
`);
  });
  afterAll(() => app.stop());

  it('lets max requests through per window, then answers 429 in the error shape with Retry-After and x-ratelimit-*', async () => {
    const accepted = [];
    for (let index = 0; index < 3; index += 1) accepted.push(await deliver(app, 'limited'));
    expect(
      accepted.map((answer) => [
        answer.status,
        answer.headers.get('x-ratelimit-limit'),
        answer.headers.get('x-ratelimit-remaining'),
      ]),
    ).toEqual([
      [202, '3', '2'],
      [202, '3', '1'],
      [202, '3', '0'],
    ]);

    const refused = await deliver(app, 'limited');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: {
        type: 'rate_limit_error',
        code: 'rate_limited',
        message: expect.stringMatching(
          /^Too many requests to webhook "limited" \(at most 3 per 60 s\); retry in \d+ s$/,
        ),
      },
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('3');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('x-ratelimit-reset')).toBe(String(retryAfter));
    expect(await storedFor(app, 'limited')).toBe(3);
  });

  it('counts before verification: an unsigned flood is refused without reaching the verifier', async () => {
    expect((await deliver(app, 'limited', { sign: false })).status).toBe(429);
  });

  it('keeps one counter per webhook: another source is not affected', async () => {
    expect((await deliver(app, 'neighbour')).status).toBe(202);
  });

  it('rate_limit: false turns it off for one webhook', async () => {
    const statuses = [];
    for (let index = 0; index < 5; index += 1) statuses.push((await deliver(app, 'unlimited')).status);
    expect(statuses).toEqual([202, 202, 202, 202, 202]);
  });

  it('an unknown name is still 404, and is not counted against anything', async () => {
    expect((await deliver(app, 'nobody')).status).toBe(404);
  });
});

describe('rate_limit in the config', () => {
  it('defaults to 1000 requests per 60 s per webhook; a webhook may set its own or false', () => {
    const config = parseConfigText(`${BASE_YAML}\nwebhooks:\n${webhook('a')}\n${webhook('b', 'false')}\n`, 'gw.yaml', {
      TEST_API_KEY,
      TEST_JWT_SECRET: 'x'.repeat(32),
    });
    expect(config.webhook_settings.rate_limit).toEqual({ max: 1000, time_window_seconds: 60 });
    expect(config.webhooks.map((entry) => entry.rate_limit)).toEqual([undefined, false]);
  });

  it.each([
    [
      '{ max: 0, time_window_seconds: 60 }',
      'gw.yaml:3: webhook_settings.rate_limit.max: Too small: expected number to be >=1',
    ],
    ['{ max: 5 }', 'gw.yaml:3: webhook_settings.rate_limit.time_window_seconds: is required (expected number)'],
    ['{ max: 5, time_window_seconds: 60, burst: 2 }', 'gw.yaml:3: unknown key "burst" in webhook_settings.rate_limit'],
  ])('%s is refused at load: %s', (value, message) => {
    expect(() =>
      parseConfigText(`webhook_settings:\n  path_prefix: /webhooks\n  rate_limit: ${value}\n`, 'gw.yaml'),
    ).toThrow(message);
  });
});

describe('when the counters in Redis are out of reach', () => {
  it('deliveries are let through uncounted (not lost), and the outage is logged', async () => {
    // Nothing listens on port 1: every counter command fails.
    const app = await startTestApp(`${BASE_YAML}
server: { redis_url: "redis://127.0.0.1:1" }
webhooks:
${webhook('offline', '{ max: 1, time_window_seconds: 60 }')}
`);
    try {
      const statuses = [];
      for (let index = 0; index < 3; index += 1) statuses.push((await deliver(app, 'offline')).status);
      expect(statuses).toEqual([202, 202, 202]);
      expect(await storedFor(app, 'offline')).toBe(3);
      expect(app.logs.text).toContain('webhook rate-limit counters unreachable in Redis');
    } finally {
      await app.stop();
    }
  });
});

const skipReason = await redisUnavailable();

describe.skipIf(skipReason !== undefined)(
  `per-webhook rate limit shared through Redis${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    // A fresh name per run, so counters left in Redis by an earlier run within its window never count here.
    const name = `shared-${randomBytes(4).toString('hex')}`;
    let first: TestApp;
    let second: TestApp;
    beforeAll(async () => {
      const yaml = `${BASE_YAML}
server: { redis_url: "${TEST_REDIS_URL}" }
webhooks:
${webhook(name, '{ max: 4, time_window_seconds: 60 }')}
`;
      first = await startTestApp(yaml);
      second = await startTestApp(yaml);
    });
    afterAll(async () => {
      await first?.stop();
      await second?.stop();
    });

    it('two instances share one counter: 4 requests in total are allowed across both', async () => {
      const statuses = [];
      for (let index = 0; index < 8; index += 1)
        statuses.push((await deliver(index % 2 === 0 ? first : second, name)).status);
      expect(statuses).toEqual([202, 202, 202, 202, 429, 429, 429, 429]);
      // Each instance has its own SQLite database here: two deliveries were stored by each.
      expect([await storedFor(first, name), await storedFor(second, name)]).toEqual([2, 2]);
    });
  },
);
