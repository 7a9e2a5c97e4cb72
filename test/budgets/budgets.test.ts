import { OpenAI } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authHeaders, startGateway, type GatewayHarness } from '../gateway/openai/openai-harness.js';

const YAML = `
auth:
  api_keys: ["\${TEST_API_KEY}"]
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0 }
pricing:
  upstream/test-model: { input_per_mtok: 1000, output_per_mtok: 2000 }
agents:
  - name: capped
    model: upstream/test-model
    max_tokens: 10
    daily_budget_usd: 0.1
  - name: looper
    model: upstream/test-model
    tools: [get_current_time]
    max_cost_per_run_usd: 0.015
  - name: tokened
    model: upstream/test-model
`;

/** The fake upstream's default usage (10 input, 5 output tokens) at the prices above. */
const CALL_COST = 0.02;
const nanos = (usd: number) => Math.round(usd * 1e9);

interface RunRow {
  agent_name: string;
  status: string;
  cost_usd: number;
  error: { code: string } | null;
}

describe('budgets', () => {
  let gateway: GatewayHarness;
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${gateway.app.url}${path}`, {
      method,
      headers: authHeaders,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return response.json();
  };
  const runsOf = async (agent: string): Promise<RunRow[]> => {
    const list = (await api('GET', `/api/v1/admin/runs?agent_name=${agent}&limit=100`)) as { run_id: string }[];
    return Promise.all(list.map((run) => api('GET', `/api/v1/admin/runs/${run.run_id}`) as Promise<RunRow>));
  };
  const spent = (runs: RunRow[]) => runs.reduce((sum, run) => sum + nanos(run.cost_usd), 0) / 1e9;

  beforeAll(async () => {
    gateway = await startGateway({ yaml: YAML });
  });
  afterAll(() => gateway.stop());
  beforeEach(() => {
    gateway.upstream.requests.length = 0;
  });

  it('lets 20 concurrent requests spend at most the daily budget plus one call, and refuses the rest with 402', async () => {
    // Every answer takes a while, so the 20 requests are in flight together.
    gateway.upstream.setDefault({ kind: 'text', text: 'ok', delayMs: 100 });
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () =>
        gateway.client.chat.completions.create({ model: 'capped', messages: [{ role: 'user', content: 'hi' }] }).then(
          () => 'ok',
          (error: unknown) => (error instanceof OpenAI.APIError ? `${error.status} ${error.code}` : String(error)),
        ),
      ),
    );
    const succeeded = outcomes.filter((outcome) => outcome === 'ok').length;
    expect(succeeded).toBeGreaterThan(0);
    expect(outcomes.filter((outcome) => outcome !== 'ok')).toEqual(Array(20 - succeeded).fill('402 budget_exceeded'));
    expect(gateway.upstream.chatRequests()).toHaveLength(succeeded);

    const runs = await runsOf('capped');
    expect(runs).toHaveLength(20);
    expect(spent(runs)).toBeLessThanOrEqual(0.1 + CALL_COST);
    expect(
      runs
        .filter((run) => run.status === 'failed')
        .every((run) => run.error?.code === 'budget_exceeded' && run.cost_usd === 0),
    ).toBe(true);
    const costs = (await api('GET', '/analytics/costs?agent_name=capped')) as { total_cost_usd: number };
    expect(nanos(costs.total_cost_usd)).toBe(nanos(spent(runs)));
  });

  it('stops a run that reached max_cost_per_run_usd before its next model call', async () => {
    gateway.upstream.enqueue(
      { kind: 'tool_calls', calls: [{ name: 'get_current_time', arguments: {} }] },
      { kind: 'text', text: 'never asked for' },
    );
    const error = await gateway.client.chat.completions
      .create({ model: 'looper', messages: [{ role: 'user', content: 'time?' }] })
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error).toMatchObject({ status: 402, code: 'budget_exceeded' });
    expect(gateway.upstream.chatRequests()).toHaveLength(1);
    const [run] = await runsOf('looper');
    expect(run).toMatchObject({ status: 'failed', cost_usd: CALL_COST, error: { code: 'budget_exceeded' } });
  });

  it('holds an access token to its max_cost_usd, also refusing a stream with 402 before it starts', async () => {
    gateway.upstream.setDefault({ kind: 'text', text: 'ok' });
    const token = (await api('POST', '/gateway/tokens', {
      agent_name: 'tokened',
      scopes: ['chat'],
      max_cost_usd: 0.05,
    })) as { token: string };
    const client = gateway.clientWith(token.token);
    const statuses: number[] = [];
    while (statuses.length < 10 && statuses.at(-1) !== 402) {
      statuses.push(
        await client.chat.completions.create({ model: 'tokened', messages: [{ role: 'user', content: 'hi' }] }).then(
          () => 200,
          (error: InstanceType<typeof OpenAI.APIError>) => error.status ?? 0,
        ),
      );
    }
    expect(statuses.at(-1)).toBe(402);
    const tokenSpent = spent(await runsOf('tokened'));
    expect(tokenSpent).toBeGreaterThanOrEqual(0.05);
    expect(tokenSpent).toBeLessThanOrEqual(0.05 + CALL_COST);
    const stream = await fetch(`${gateway.app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'tokened', messages: [{ role: 'user', content: 'hi' }], stream: true }),
    });
    expect(stream.status).toBe(402);
    expect(((await stream.json()) as { error: object }).error).toMatchObject({
      type: 'payment_required_error',
      code: 'budget_exceeded',
    });
    // An operator is not held to the token's limit.
    await expect(
      gateway.client.chat.completions.create({ model: 'tokened', messages: [{ role: 'user', content: 'hi' }] }),
    ).resolves.toBeDefined();
  });
});
