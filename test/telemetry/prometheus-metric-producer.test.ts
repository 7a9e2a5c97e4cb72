import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  DataPointType,
  type HistogramMetricData,
  type MetricData,
  type SumMetricData,
} from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { createMetrics, type InboxObservation, type UsageObservation } from '../../src/http/metrics.js';
import { PrometheusMetricProducer } from '../../src/telemetry/sdk/prometheus-metric-producer.js';

const call: UsageObservation = {
  agent_name: 'helper',
  model: 'oai/gpt-4o',
  input_tokens: 100,
  output_tokens: 20,
  cost_usd: 0.5,
  status: 'ok',
  latency_ms: 300,
  ttft_ms: 50,
  provider: 'oai',
  provider_type: 'openai',
};

function gatewayMetrics(inbox: InboxObservation[] = []) {
  return createMetrics({
    agentNames: ['helper'],
    gauges: { activeRuns: () => 0, activeSessions: () => Promise.resolve(0), inboxStats: () => Promise.resolve(inbox) },
  });
}

const providerType = (provider: string) => (provider === 'oai' ? 'openai' : provider);

async function collect(producer: PrometheusMetricProducer): Promise<Map<string, MetricData>> {
  const { resourceMetrics, errors } = await producer.collect();
  expect(errors).toEqual([]);
  return new Map(resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics).map((m) => [m.descriptor.name, m]));
}

describe('OTLP metrics read from the Prometheus registry', () => {
  it('gives histograms per-bucket counts, sum and count equal to /metrics, with the conventions’ attributes', async () => {
    const metrics = gatewayMetrics();
    metrics.observeUsage(call);
    metrics.observeUsage({ ...call, input_tokens: 5000, latency_ms: 30 });
    metrics.observeUsage({ ...call, status: 'error', latency_ms: 7000, ttft_ms: null });
    const producer = new PrometheusMetricProducer(resourceFromAttributes({}));
    producer.add({ registry: metrics.registry, providerType });

    const data = await collect(producer);
    const tokens = data.get('gen_ai.client.token.usage') as HistogramMetricData;
    expect(tokens.dataPointType).toBe(DataPointType.HISTOGRAM);
    const input = tokens.dataPoints.find((point) => point.attributes['gen_ai.token.type'] === 'input')!;
    expect(input.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o',
      'gen_ai.agent.name': 'helper',
      'gen_ai.token.type': 'input',
    });
    expect(input.value.count).toBe(2);
    expect(input.value.sum).toBe(5100);
    // The conventions' 14 boundaries; 100 falls in (64, 256], 5000 in (4096, 16384].
    expect(input.value.buckets.boundaries).toHaveLength(14);
    expect(input.value.buckets.counts).toEqual([0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);

    const scrape = await metrics.registry.metrics();
    const promSum = /gen_ai_client_token_usage_sum\{agent="helper",model="oai\/gpt-4o",token_type="input"\} (\d+)/;
    expect(Number(promSum.exec(scrape)?.[1])).toBe(input.value.sum);

    const duration = data.get('gen_ai.client.operation.duration') as HistogramMetricData;
    const failed = duration.dataPoints.find((point) => point.attributes['error.type'] === 'error')!;
    expect(failed.value.count).toBe(1);
    expect(failed.value.sum).toBe(7);
    expect(duration.dataPoints.find((point) => !('error.type' in point.attributes))!.value.count).toBe(2);

    const cost = data.get('agent_gateway.cost') as SumMetricData;
    expect(cost.dataPointType).toBe(DataPointType.SUM);
    expect(cost.isMonotonic).toBe(true);
    expect(cost.dataPoints[0].value).toBeCloseTo(1.5);
  });

  it('maps runs, budget and rate-limit rejections, overhead and the inbox gauges', async () => {
    const metrics = gatewayMetrics([
      {
        kind: 'webhook',
        name: 'orders',
        pending: 3,
        running: 1,
        done: 9,
        dead: 0,
        ignored: 0,
        oldest_pending_at: null,
      },
    ]);
    metrics.observeRunEnd('helper', 'failed', {
      code: 'budget_exceeded',
      refusal: { budget: 'daily', stage: 'admission' },
    });
    metrics.observeRateLimitRejection({ route: '/v1/chat/completions', subject: 'operator', limit: 'requests' });
    metrics.observeOverhead('/v1/chat/completions', 0.0007);
    const producer = new PrometheusMetricProducer(resourceFromAttributes({}));
    producer.add({ registry: metrics.registry, providerType });

    const data = await collect(producer);
    expect((data.get('agent_gateway.runs') as SumMetricData).dataPoints).toMatchObject([
      { attributes: { 'gen_ai.agent.name': 'helper', 'agent_gateway.run.status': 'failed' }, value: 1 },
    ]);
    expect((data.get('agent_gateway.budget.rejections') as SumMetricData).dataPoints[0].attributes).toEqual({
      'gen_ai.agent.name': 'helper',
      'agent_gateway.budget.name': 'daily',
      'agent_gateway.budget.stage': 'admission',
    });
    // A caller's limit has no agent: the attribute is left out, not empty.
    expect((data.get('agent_gateway.rate_limit.rejections') as SumMetricData).dataPoints[0].attributes).toEqual({
      'http.route': '/v1/chat/completions',
      'agent_gateway.rate_limit.subject': 'operator',
      'agent_gateway.rate_limit.reason': 'requests',
    });
    const overhead = data.get('agent_gateway.overhead') as HistogramMetricData;
    expect(overhead.dataPoints[0].value.buckets.counts.slice(0, 3)).toEqual([0, 1, 0]);
    // Only the pending state is the depth.
    expect(data.get('agent_gateway.inbox.depth')?.dataPoints).toMatchObject([
      { attributes: { 'agent_gateway.trigger.kind': 'webhook', 'agent_gateway.trigger.name': 'orders' }, value: 3 },
    ]);
    expect(data.get('agent_gateway.inbox.oldest_pending_age')?.dataPoints[0].value).toBe(0);
  });

  it('sums the series of two registries (two apps in one process) and stops reading a removed one', async () => {
    const first = gatewayMetrics();
    const second = gatewayMetrics();
    first.observeRunEnd('helper', 'completed');
    second.observeRunEnd('helper', 'completed');
    second.observeUsage(call);
    first.observeUsage(call);
    const producer = new PrometheusMetricProducer(resourceFromAttributes({}));
    producer.add({ registry: first.registry, providerType });
    const remove = producer.add({ registry: second.registry, providerType });

    let data = await collect(producer);
    expect((data.get('agent_gateway.runs') as SumMetricData).dataPoints).toMatchObject([{ value: 2 }]);
    const output = (data.get('gen_ai.client.token.usage') as HistogramMetricData).dataPoints.find(
      (point) => point.attributes['gen_ai.token.type'] === 'output',
    )!;
    expect(output.value).toMatchObject({ count: 2, sum: 40 });
    expect(output.value.buckets.counts[3]).toBe(2); // 20 tokens: (16, 64]

    remove();
    data = await collect(producer);
    expect((data.get('agent_gateway.runs') as SumMetricData).dataPoints).toMatchObject([{ value: 1 }]);
  });
});
