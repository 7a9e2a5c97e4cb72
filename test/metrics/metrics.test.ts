import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, startGateway, type GatewayHarness } from '../gateway/openai/openai-harness.js';
import { parseExposition, type MetricFamily } from './parse-exposition.js';

const YAML = `
auth:
  api_keys: ["\${TEST_API_KEY}"]
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0 }
pricing:
  upstream/test-model: { input_per_mtok: 1000, output_per_mtok: 2000 }
guardrails:
  pii: { action: redact }
agents:
  - name: helper
    model: upstream/test-model
  - name: broke
    model: upstream/test-model
    daily_budget_usd: 0.01
`;

describe('GET /metrics', () => {
  let gateway: GatewayHarness;
  let families: Map<string, MetricFamily>;
  const value = (family: string, labels: Record<string, string>) =>
    families
      .get(family)
      ?.samples.find((sample) => Object.entries(labels).every(([key, wanted]) => sample.labels[key] === wanted))?.value;

  beforeAll(async () => {
    gateway = await startGateway({ yaml: YAML });
    gateway.upstream.enqueue({ kind: 'text', text: 'Mail me at a.b@example.com' });
    await gateway.client.chat.completions.create({ model: 'helper', messages: [{ role: 'user', content: 'hi' }] });
    const stream = await gateway.client.chat.completions.create({
      model: 'helper',
      messages: [{ role: 'user', content: 'again' }],
      stream: true,
    });
    for await (const _chunk of stream) void _chunk;
    // The first call takes the budget past its limit; the second is refused.
    for (let i = 0; i < 2; i += 1)
      await gateway.client.chat.completions
        .create({ model: 'broke', messages: [{ role: 'user', content: 'hi' }] })
        .catch(() => undefined);
    const response = await fetch(`${gateway.app.url}/metrics`, { headers: authHeaders });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    families = parseExposition(await response.text());
  });
  afterAll(() => gateway.stop());

  it('needs operator credentials', async () => {
    expect((await fetch(`${gateway.app.url}/metrics`)).status).toBe(401);
  });

  it('counts requests by route and status, with latency and gateway-overhead histograms', () => {
    expect(
      value('agent_gateway_http_requests_total', { route: '/v1/chat/completions', status: '200', method: 'POST' }),
    ).toBe(3);
    expect(value('agent_gateway_http_requests_total', { route: '/v1/chat/completions', status: '402' })).toBe(1);
    expect(value('agent_gateway_http_request_duration_seconds', { route: '/v1/chat/completions', le: '+Inf' })).toBe(4);
    expect(families.get('agent_gateway_overhead_seconds')?.type).toBe('histogram');
    expect(value('agent_gateway_overhead_seconds', { route: '/v1/chat/completions', le: '+Inf' })).toBe(4);
  });

  it('reports tokens, cost, model calls, guardrail events, runs and budget rejections by agent and model', () => {
    expect(value('agent_gateway_tokens_total', { agent: 'helper', model: 'upstream/test-model', kind: 'input' })).toBe(
      20,
    );
    expect(value('agent_gateway_tokens_total', { agent: 'helper', model: 'upstream/test-model', kind: 'output' })).toBe(
      10,
    );
    expect(value('agent_gateway_cost_usd_total', { agent: 'helper', model: 'upstream/test-model' })).toBeCloseTo(
      0.04,
      12,
    );
    expect(value('agent_gateway_model_calls_total', { agent: 'broke', status: 'ok' })).toBe(1);
    expect(value('agent_gateway_guardrail_events_total', { agent: 'helper', type: 'pii', action: 'redact' })).toBe(1);
    expect(value('agent_gateway_runs_total', { agent: 'helper', status: 'completed' })).toBe(2);
    expect(value('agent_gateway_budget_rejections_total', { agent: 'broke' })).toBe(1);
    expect(value('agent_gateway_active_runs', {})).toBe(0);
    // Each of the four chats above started a session of its own (none sent X-Session-Id), and none was continued:
    // a one-off call's session is not an active one.
    expect(value('agent_gateway_active_sessions', {})).toBe(0);
    expect(families.has('process_cpu_seconds_total')).toBe(true);
  });

  it('sets x-gateway-overhead-ms on plain and streamed chat completions', async () => {
    const { response } = await gateway.client.chat.completions
      .create({ model: 'helper', messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    // A missing header would read as null, and Number(null) is 0: match the text instead.
    expect(response.headers.get('x-gateway-overhead-ms')).toMatch(/^\d+\.\d{3}$/);
    const streamed = await fetch(`${gateway.app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: authHeaders,
      body: JSON.stringify({ model: 'helper', messages: [{ role: 'user', content: 'hi' }], stream: true }),
    });
    expect(streamed.headers.get('content-type')).toContain('text/event-stream');
    expect(streamed.headers.get('x-gateway-overhead-ms')).toMatch(/^\d+\.\d{3}$/);
    await streamed.text();
  });
});
