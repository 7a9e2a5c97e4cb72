import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, TEST_API_KEY, type TestApp } from '../support/app.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { startOtlpReceiver, type OtlpReceiver } from '../telemetry/otlp-receiver.js';
import { parseExposition } from './parse-exposition.js';

const YAML = `
auth:
  api_keys: ["\${TEST_API_KEY}"]
providers:
  upstream: { type: openai-compatible, base_url: "\${UPSTREAM_URL}", max_retries: 0 }
pricing:
  upstream/test-model: { input_per_mtok: 1000, output_per_mtok: 2000 }
agents:
  - name: limited
    model: upstream/test-model
    rate_limit: { requests_per_minute: 1 }
  - name: broke
    model: upstream/test-model
    daily_budget_usd: 0.01
  - name: open
    model: upstream/test-model
webhooks:
  - name: shop
    verification: hmac-sha256
    secret: shop-secret
    rate_limit: { max: 1, time_window_seconds: 60 }
    handlers: [{ event: "*", agent: open, prompt: "order" }]
telemetry:
  enabled: true
  endpoint: "\${OTLP_URL}"
  # The test receiver decodes OTLP JSON (the default is protobuf).
  protocol: http/json
`;

const headers = { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' };

describe('rate-limit and budget rejections on /metrics and over OTLP', () => {
  let receiver: OtlpReceiver;
  let upstream: FakeUpstream;
  let app: TestApp;
  beforeAll(async () => {
    [receiver, upstream] = await Promise.all([startOtlpReceiver(), startFakeUpstream()]);
    app = await startTestApp(YAML, { env: { UPSTREAM_URL: upstream.url, OTLP_URL: receiver.url } });
  });
  afterAll(async () => {
    await app?.stop();
    await Promise.all([upstream?.close(), receiver?.close()]);
  });

  const chat = (agent: string) =>
    fetch(`${app.url}/v1/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: agent, messages: [{ role: 'user', content: 'hi' }] }),
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));
  async function scrape() {
    const response = await fetch(`${app.url}/metrics`, { headers });
    return parseExposition(await response.text());
  }
  const samplesOf = async (family: string) =>
    ((await scrape()).get(family)?.samples ?? []).map(({ labels, value }) => ({ labels, value }));

  it("counts a 429 of an agent's limit with the agent, the limited subject and the reason", async () => {
    upstream.setDefault({ kind: 'text', text: 'ok' });
    expect((await chat('limited')).status).toBe(200);
    const refused = await chat('limited');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    // An upstream's own 429 is passed on to the client, but no limit of the gateway refused anything.
    upstream.enqueue({ kind: 'error', status: 429, body: { error: { message: 'slow down' } } });
    expect((await chat('open')).status).toBe(429);

    expect(await samplesOf('agent_gateway_rate_limit_rejections_total')).toEqual([
      {
        labels: { route: '/v1/chat/completions', agent: 'limited', subject: 'agent', reason: 'requests' },
        value: 1,
      },
    ]);
  });

  it("counts a delivery refused by its webhook's limit", async () => {
    const deliver = () =>
      fetch(`${app.url}/webhooks/shop`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
    // The first one passes the limit (and fails its signature); the second is refused before.
    expect((await deliver()).status).toBe(401);
    expect((await deliver()).status).toBe(429);
    const samples = await samplesOf('agent_gateway_rate_limit_rejections_total');
    expect(samples.find((sample) => sample.labels.subject === 'webhook')).toEqual({
      labels: { route: '/webhooks/:name', agent: '', subject: 'webhook', reason: 'requests' },
      value: 1,
    });
  });

  it('counts a run refused by an agent budget at admission, by agent, budget and stage', async () => {
    upstream.setDefault({ kind: 'text', text: 'pricey', usage: { prompt_tokens: 10_000, completion_tokens: 10 } });
    expect((await chat('broke')).status).toBe(200);
    const refused = await chat('broke');
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe('budget_exceeded');
    expect(await samplesOf('agent_gateway_budget_rejections_total')).toEqual([
      { labels: { agent: 'broke', budget: 'agent_daily', stage: 'admission' }, value: 1 },
    ]);
  });

  it('exports the same rejections over OTLP', async () => {
    const points = (name: string) => receiver.metrics().find((metric) => metric.name === name)?.points ?? [];
    await vi.waitFor(
      async () => {
        await app.telemetry.flush();
        expect(points('agent_gateway.budget.rejections').at(-1)).toMatchObject({
          attributes: {
            'gen_ai.agent.name': 'broke',
            'agent_gateway.budget.name': 'agent_daily',
            'agent_gateway.budget.stage': 'admission',
          },
          value: 1,
        });
      },
      { timeout: 10_000, interval: 50 },
    );
    const rateLimited = points('agent_gateway.rate_limit.rejections');
    // Cumulative sums: the last export holds every series.
    expect(
      rateLimited.filter((point) => point.attributes['agent_gateway.rate_limit.subject'] === 'agent').at(-1),
    ).toEqual({
      attributes: {
        'http.route': '/v1/chat/completions',
        'gen_ai.agent.name': 'limited',
        'agent_gateway.rate_limit.subject': 'agent',
        'agent_gateway.rate_limit.reason': 'requests',
      },
      value: 1,
      count: undefined,
      sum: undefined,
    });
    expect(rateLimited.some((point) => point.attributes['agent_gateway.rate_limit.subject'] === 'webhook')).toBe(true);
  });
});
