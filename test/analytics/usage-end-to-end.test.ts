import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, startGateway, type GatewayHarness } from '../gateway/openai/openai-harness.js';

const YAML = `
auth:
  api_keys: ["\${TEST_API_KEY}"]
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0 }
pricing:
  upstream/test-model: { input_per_mtok: 3, output_per_mtok: 15, cached_input_per_mtok: 0.3 }
  upstream/cheap-model: { input_per_mtok: 1, output_per_mtok: 2 }
agents:
  - name: helper
    model: upstream/test-model
  - name: other
    model: upstream/cheap-model
  - name: unpriced
    model: upstream/zz-no-such-model-anywhere
`;

/** 600 uncached input tokens at $3, 400 cached at $0.30 and 200 output at $15, per million. */
const USAGE = { prompt_tokens: 1000, completion_tokens: 200, cached_tokens: 400 };
const COST = (600 * 3 + 400 * 0.3 + 200 * 15) / 1_000_000;
const OTHER_COST = (10 * 1 + 5 * 2) / 1_000_000;

const nanos = (usd: number) => Math.round(usd * 1e9);

describe('usage and costs of real calls, end to end', () => {
  let gateway: GatewayHarness;
  let startedAt: string;

  const get = async (path: string): Promise<any> => {
    const response = await fetch(`${gateway.app.url}${path}`, { headers: authHeaders });
    expect(response.status).toBe(200);
    return response.json();
  };

  beforeAll(async () => {
    gateway = await startGateway({ yaml: YAML });
    startedAt = new Date().toISOString();
    const { client, upstream } = gateway;
    upstream.enqueue({ kind: 'text', text: 'plain answer', usage: USAGE });
    await client.chat.completions.create({ model: 'helper', messages: [{ role: 'user', content: 'one' }] });
    upstream.enqueue({ kind: 'text', text: 'streamed answer in pieces', usage: USAGE, chunks: 4 });
    const stream = await client.chat.completions.create({
      model: 'helper',
      messages: [{ role: 'user', content: 'two' }],
      stream: true,
    });
    for await (const _chunk of stream) void _chunk;
    upstream.enqueue({ kind: 'text', text: 'cheap', usage: { prompt_tokens: 10, completion_tokens: 5 } });
    await client.chat.completions.create({ model: 'other', messages: [{ role: 'user', content: 'three' }] });
    // No usage on the wire: the tokens are counted locally and the record is marked estimated.
    upstream.enqueue({ kind: 'text', text: 'no usage reported here', usage: null, chunks: 2 });
    const estimated = await client.chat.completions.create({
      model: 'other',
      messages: [{ role: 'user', content: 'four' }],
      stream: true,
    });
    for await (const _chunk of estimated) void _chunk;
    for (const content of ['five', 'six'])
      await client.chat.completions.create({ model: 'unpriced', messages: [{ role: 'user', content }] });
  });
  afterAll(() => gateway.stop());

  it('prices streamed and non-streamed calls alike, from the configured prices', async () => {
    const rows = await gateway.app.database.db
      .selectFrom('usage_records')
      .selectAll()
      .where('agent_name', '=', 'helper')
      .orderBy('created_at')
      .execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toMatchObject({
        model: 'upstream/test-model',
        provider: 'upstream',
        source: 'chat',
        input_tokens: 1000,
        output_tokens: 200,
        cached_tokens: 400,
        total_tokens: 1200,
        status: 'ok',
        priced: 1,
        estimated: 0,
      });
      expect(Number(row.cost_usd)).toBe(COST);
      expect(row.ttft_ms).not.toBeNull();
      expect(row.step_id).toMatch(/^step_/);
    }
  });

  it('marks usage the upstream did not report as estimated, and unknown models as unpriced with one warning per model', async () => {
    const rows = await gateway.app.database.db
      .selectFrom('usage_records')
      .selectAll()
      .where('agent_name', 'in', ['other', 'unpriced'])
      .orderBy('created_at')
      .execute();
    expect(rows.map((row) => [row.agent_name, row.estimated, row.priced])).toEqual([
      ['other', 0, 1],
      ['other', 1, 1],
      ['unpriced', 0, 0],
      ['unpriced', 0, 0],
    ]);
    expect(rows[1].output_tokens).toBeGreaterThan(0);
    expect(rows.filter((row) => row.agent_name === 'unpriced').map((row) => Number(row.cost_usd))).toEqual([0, 0]);
    const warnings = gateway.app.logs.lines.filter(
      (line) => line.includes('zz-no-such-model-anywhere') && line.includes('no price'),
    );
    expect(warnings).toHaveLength(1);
  });

  it('reports costs, usage, models and agents that agree with the run records exactly', async () => {
    const costs = await get('/analytics/costs');
    const runs = (await get('/api/v1/admin/runs?limit=100')) as { cost_usd: number; total_tokens: number }[];
    expect(runs).toHaveLength(6);
    expect(nanos(costs.total_cost_usd)).toBe(runs.reduce((sum, run) => sum + nanos(run.cost_usd), 0));
    expect(costs.record_count).toBe(6);
    expect(costs.by_agent.helper).toBe(2 * COST);
    expect(costs.by_model['upstream/test-model']).toBe(2 * COST);
    expect(costs.by_agent.unpriced).toBe(0);
    const usage = await get('/analytics/usage');
    expect(usage.total_tokens).toBe(runs.reduce((sum, run) => sum + run.total_tokens, 0));
    expect(usage.by_agent.helper).toBe(2400);
    const models = await get('/analytics/models');
    expect(models[0]).toEqual({
      model: 'upstream/test-model',
      total_cost_usd: 2 * COST,
      total_tokens: 2400,
      request_count: 2,
      cost_per_1k_tokens: expect.any(Number),
    });
    expect(models.map((row: { model: string }) => row.model).sort()).toEqual([
      'upstream/cheap-model',
      'upstream/test-model',
      'upstream/zz-no-such-model-anywhere',
    ]);
    const agents = await get('/analytics/agents');
    expect(agents.find((row: { agent_name: string }) => row.agent_name === 'other')).toMatchObject({
      request_count: 2,
      models_used: ['upstream/cheap-model'],
    });
    expect(
      nanos(agents.find((row: { agent_name: string }) => row.agent_name === 'other').total_cost_usd),
    ).toBeGreaterThan(nanos(OTHER_COST));
  });

  it('filters by agent and by time window', async () => {
    expect((await get('/analytics/costs?agent_name=helper')).record_count).toBe(2);
    expect((await get(`/analytics/costs?since=${encodeURIComponent(startedAt)}`)).record_count).toBe(6);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(await get(`/analytics/costs?since=${tomorrow}`)).toEqual({
      total_cost_usd: 0,
      by_model: {},
      by_agent: {},
      record_count: 0,
    });
    expect((await get(`/analytics/usage?until=${encodeURIComponent(startedAt)}`)).record_count).toBe(0);
    expect(
      (await get(`/analytics/agents?agent_name=other&until=${tomorrow}`)).map(
        (row: { agent_name: string }) => row.agent_name,
      ),
    ).toEqual(['other']);
  });
});
