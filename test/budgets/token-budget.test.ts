import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, startGateway, type GatewayHarness } from '../gateway/openai/openai-harness.js';

const YAML = `
auth:
  api_keys: ["\${TEST_API_KEY}"]
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0 }
pricing:
  upstream/test-model: { input_per_mtok: 1000, output_per_mtok: 2000 }
agents:
  - { name: capped, model: upstream/test-model, max_tokens: 10, daily_budget_usd: 0.1 }
  - { name: free, model: upstream/test-model }
`;

interface OwnToken {
  token_id: string;
  budget: { max_cost_usd: number | null; spent_usd: number; held_usd: number; remaining_usd: number | null };
  agent_daily_budget: { limit_usd: number; spent_usd: number; held_usd: number; remaining_usd: number } | null;
  rate_limit: unknown;
}

describe('GET /gateway/token: an access token reads its own budget', () => {
  let gateway: GatewayHarness;

  beforeAll(async () => {
    gateway = await startGateway({ yaml: YAML });
  });
  afterAll(() => gateway.stop());

  async function createToken(fields: Record<string, unknown>) {
    const response = await fetch(`${gateway.app.url}/gateway/tokens`, {
      method: 'POST',
      headers: authHeaders,
      body: JSON.stringify(fields),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as { token: string; token_id: string };
  }
  const own = (credential: string) =>
    fetch(`${gateway.app.url}/gateway/token`, { headers: { authorization: `Bearer ${credential}` } });
  const chat = async (model: string, credential: string) => {
    const response = await fetch(`${gateway.app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    });
    await response.body?.cancel();
    return response.status;
  };

  it("shows its cap, what its runs spent and what is left, and its agent's daily budget", async () => {
    const { token, token_id } = await createToken({
      agent_name: 'capped',
      max_cost_usd: 0.05,
      rate_limit: { requests_per_minute: 10 },
    });
    // The fake upstream's usage (10 in, 5 out) costs $0.02 a call at these prices.
    expect([await chat('capped', token), await chat('capped', token)]).toEqual([200, 200]);
    const response = await own(token);
    expect(response.status).toBe(200);
    const body = (await response.json()) as OwnToken;
    expect(body).toMatchObject({
      token_id,
      budget: { max_cost_usd: 0.05, spent_usd: 0.04, held_usd: 0, remaining_usd: 0.01 },
      agent_daily_budget: { limit_usd: 0.1, spent_usd: 0.04, held_usd: 0, remaining_usd: 0.06 },
      rate_limit: { requests_per_minute: 10 },
    });
  });

  it('works whatever the scopes, without using up a single-use token; an uncapped token has no remaining', async () => {
    const { token } = await createToken({ agent_name: 'free', scopes: ['a2a'], single_use: true });
    for (let read = 0; read < 2; read += 1) {
      const response = await own(token);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        budget: { max_cost_usd: null, spent_usd: 0, held_usd: 0, remaining_usd: null },
        agent_daily_budget: null,
        rate_limit: null,
      });
    }
  });

  it('answers operators with 403 access_token_only', async () => {
    const response = await fetch(`${gateway.app.url}/gateway/token`, { headers: authHeaders });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: 'access_token_only' } });
  });
});
