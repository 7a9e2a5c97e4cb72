import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryRateLimitCounter, RATE_LIMIT_WINDOW_MS } from '../../src/http/index.js';
import { authHeaders, startGateway, type GatewayHarness } from '../gateway/openai/openai-harness.js';
import { TEST_API_KEY } from '../support/app.js';

// The fake upstream answers every call with 10 input and 5 output tokens: 15 model tokens a call.
const YAML = `
auth:
  api_keys: ["\${TEST_API_KEY}", "second-operator-key-0123"]
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0 }
agents:
  - { name: limited, model: upstream/test-model, rate_limit: { requests_per_minute: 3 } }
  - { name: thrifty, model: upstream/test-model, rate_limit: { tokens_per_minute: 20 } }
  - { name: open, model: upstream/test-model }
  - { name: open2, model: upstream/test-model }
`;

describe('rate limits per agent, access token and operator key (one process)', () => {
  let gateway: GatewayHarness;

  beforeAll(async () => {
    gateway = await startGateway({ yaml: YAML });
  });
  afterAll(() => gateway.stop());
  beforeEach(() => {
    gateway.upstream.requests.length = 0;
  });

  async function chat(model: string, credential = TEST_API_KEY) {
    const response = await fetch(`${gateway.app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    });
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as { error: { type: string; code: string; message: string } },
    };
  }

  async function createToken(agent: string, rateLimit: Record<string, number>) {
    const response = await fetch(`${gateway.app.url}/gateway/tokens`, {
      method: 'POST',
      headers: authHeaders,
      body: JSON.stringify({ agent_name: agent, scopes: ['chat'], rate_limit: rateLimit }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as { token: string; token_id: string; rate_limit: unknown };
  }

  it('an agent limit of 3 requests per minute answers the 4th with 429, Retry-After and x-ratelimit headers', async () => {
    const token = await createToken('limited', {});
    const answers = [
      await chat('limited'),
      await chat('limited', token.token),
      await chat('limited', 'second-operator-key-0123'),
      await chat('limited', token.token),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((answer) => answer.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0', '0']);
    const refused = answers[3];
    expect(refused.headers.get('x-ratelimit-limit')).toBe('3');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
    expect(refused.body.error.message).toContain('agent "limited"');
    // The refused request never reached the model.
    expect(gateway.upstream.chatRequests()).toHaveLength(3);
  });

  it("an access token's own requests_per_minute is counted for it alone", async () => {
    const first = await createToken('open', { requests_per_minute: 2 });
    expect(first.rate_limit).toEqual({ requests_per_minute: 2 });
    const second = await createToken('open', { requests_per_minute: 2 });
    const statuses = [];
    for (let call = 0; call < 3; call += 1) statuses.push((await chat('open', first.token)).status);
    expect(statuses).toEqual([200, 200, 429]);
    expect((await chat('open', second.token)).status).toBe(200);
  });

  it("tokens per minute count the model tokens of an access token's runs: 15 a call, limit 20 → the 3rd call is refused", async () => {
    const token = await createToken('open2', { tokens_per_minute: 20 });
    const answers = [
      await chat('open2', token.token),
      await chat('open2', token.token),
      await chat('open2', token.token),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429]);
    expect(answers.map((answer) => answer.headers.get('x-ratelimit-remaining-tokens'))).toEqual(['20', '5', '0']);
    expect(answers[2].body.error.code).toBe('token_rate_limited');
    expect(gateway.upstream.chatRequests()).toHaveLength(2);
  });

  it("and an agent's tokens_per_minute counts its runs whoever starts them", async () => {
    const token = await createToken('thrifty', {});
    const statuses = [
      (await chat('thrifty')).status,
      (await chat('thrifty', token.token)).status,
      (await chat('thrifty')).status,
    ];
    expect(statuses).toEqual([200, 200, 429]);
  });
});

describe('rate limits of operator keys', () => {
  it('an operator key limited to 2 requests per minute is refused the 3rd; another key and admin routes are not', async () => {
    const yaml = YAML.replace(
      '"second-operator-key-0123"]',
      '"second-operator-key-0123"]\n  rate_limit: { requests_per_minute: 2 }',
    );
    const gateway = await startGateway({ yaml });
    try {
      const chat = async (credential: string) =>
        (
          await fetch(`${gateway.app.url}/v1/chat/completions`, {
            method: 'POST',
            headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json' },
            body: JSON.stringify({ model: 'open', messages: [{ role: 'user', content: 'hi' }] }),
          })
        ).status;
      const key = 'second-operator-key-0123';
      expect([await chat(key), await chat(key), await chat(key)]).toEqual([200, 200, 429]);
      expect(await chat(TEST_API_KEY)).toBe(200);
      const admin = await fetch(`${gateway.app.url}/api/v1/admin/agents`, { headers: { 'x-api-key': key } });
      expect(admin.status).toBe(200);
    } finally {
      await gateway.stop();
    }
  });
});

describe('the in-process counter', () => {
  it('opens a new window a minute after the first use', async () => {
    let now = 1_000;
    const counter = createMemoryRateLimitCounter(() => now);
    const check = { key: 'agent:a:requests', limit: 1, kind: 'requests' as const };
    expect((await counter.take([check])).refused).toBeUndefined();
    now += RATE_LIMIT_WINDOW_MS - 1;
    const refused = await counter.take([check]);
    expect(refused).toMatchObject({ refused: 0, windows: [{ used: 1, resetMs: 1 }] });
    now += 1;
    expect((await counter.take([check])).refused).toBeUndefined();
  });

  it('takes nothing when one of the limits refuses', async () => {
    const counter = createMemoryRateLimitCounter();
    const token = { key: 'token:t:requests', limit: 5, kind: 'requests' as const };
    const agent = { key: 'agent:a:requests', limit: 1, kind: 'requests' as const };
    await counter.take([agent]);
    expect((await counter.take([token, agent])).refused).toBe(1);
    expect((await counter.take([token])).windows[0].used).toBe(1);
  });
});
