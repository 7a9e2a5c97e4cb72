import { ValueType, type Attributes, type HrTime } from '@opentelemetry/api';
import { millisToHrTime } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import {
  AggregationTemporality,
  DataPointType,
  type CollectionResult,
  type DataPoint,
  type Histogram,
  type MetricData,
  type MetricProducer,
} from '@opentelemetry/sdk-metrics';
import type { MetricObjectWithValues, MetricValue, MetricValueWithName } from 'prom-client';
import { mapProviderName } from '../chat-span.js';
import { ERROR_TYPE, GEN_AI } from '../gen-ai-attributes.js';
import type { PrometheusMetricSource } from '../telemetry.types.js';
import { INSTRUMENTATION_NAME } from '../tracer.js';

type Labels = Record<string, string | number | undefined>;

interface Mapping {
  /** The Prometheus metric read (http/metrics.ts). */
  prom: string;
  name: string;
  description: string;
  unit: string;
  kind: 'histogram' | 'counter' | 'gauge';
  valueType?: ValueType;
  /** The OTLP attributes of a series; undefined leaves the series out. */
  attributes(labels: Labels, source: PrometheusMetricSource): Attributes | undefined;
}

// `model` is `<provider>/<model id>` on /metrics; `_other` past the label bound (so OTLP is bounded too).
function chatAttributes(labels: Labels, source: PrometheusMetricSource): Attributes {
  const model = String(labels.model);
  const slash = model.indexOf('/');
  const provider = slash < 0 ? model : model.slice(0, slash);
  return {
    [GEN_AI.OPERATION_NAME]: 'chat',
    [GEN_AI.PROVIDER_NAME]: mapProviderName(provider, source.providerType(provider)),
    [GEN_AI.REQUEST_MODEL]: model.slice(slash + 1),
    [GEN_AI.AGENT_NAME]: String(labels.agent),
  };
}

const MAPPINGS: Mapping[] = [
  {
    prom: 'gen_ai_client_token_usage',
    name: 'gen_ai.client.token.usage',
    description: 'Tokens used per model call, by gen_ai.token.type (input, output)',
    unit: '{token}',
    kind: 'histogram',
    attributes: (labels, source) => ({ ...chatAttributes(labels, source), [GEN_AI.TOKEN_TYPE]: labels.token_type }),
  },
  {
    prom: 'gen_ai_client_operation_duration_seconds',
    name: 'gen_ai.client.operation.duration',
    description: 'Model call duration, as the gateway waited on the upstream',
    unit: 's',
    kind: 'histogram',
    attributes: (labels, source) => ({
      ...chatAttributes(labels, source),
      ...(labels.status === 'error' && { [ERROR_TYPE]: 'error' }),
    }),
  },
  {
    prom: 'gen_ai_server_time_to_first_token_seconds',
    name: 'gen_ai.server.time_to_first_token',
    description: 'Time from the model call to its first streamed part',
    unit: 's',
    kind: 'histogram',
    attributes: chatAttributes,
  },
  {
    prom: 'gen_ai_server_time_per_output_token_seconds',
    name: 'gen_ai.server.time_per_output_token',
    description: 'Time per output token after the first one',
    unit: 's',
    kind: 'histogram',
    attributes: chatAttributes,
  },
  {
    prom: 'agent_gateway_cost_usd_total',
    name: 'agent_gateway.cost',
    description: 'Model cost',
    unit: 'USD',
    kind: 'counter',
    attributes: chatAttributes,
  },
  {
    prom: 'agent_gateway_overhead_seconds',
    name: 'agent_gateway.overhead',
    description: 'Request time minus the time spent waiting on model and tool calls',
    unit: 's',
    kind: 'histogram',
    attributes: (labels) => ({ 'http.route': labels.route }),
  },
  {
    prom: 'agent_gateway_runs_total',
    name: 'agent_gateway.runs',
    description: 'Finished runs by outcome',
    unit: '{run}',
    kind: 'counter',
    valueType: ValueType.INT,
    attributes: (labels) => ({ [GEN_AI.AGENT_NAME]: labels.agent, 'agent_gateway.run.status': labels.status }),
  },
  {
    prom: 'agent_gateway_budget_rejections_total',
    name: 'agent_gateway.budget.rejections',
    description: 'Runs refused (admission) or stopped (before a later model call) by a budget',
    unit: '{run}',
    kind: 'counter',
    valueType: ValueType.INT,
    attributes: (labels) => ({
      [GEN_AI.AGENT_NAME]: labels.agent,
      'agent_gateway.budget.name': labels.budget,
      'agent_gateway.budget.stage': labels.stage,
    }),
  },
  {
    prom: 'agent_gateway_rate_limit_rejections_total',
    name: 'agent_gateway.rate_limit.rejections',
    description: 'Requests refused by a rate limit',
    unit: '{request}',
    kind: 'counter',
    valueType: ValueType.INT,
    attributes: (labels) => ({
      'http.route': labels.route,
      // An empty agent label is a limit on the caller alone.
      ...(labels.agent && { [GEN_AI.AGENT_NAME]: labels.agent }),
      'agent_gateway.rate_limit.subject': labels.subject,
      'agent_gateway.rate_limit.reason': labels.reason,
    }),
  },
  {
    prom: 'agent_gateway_inbox_items',
    name: 'agent_gateway.inbox.depth',
    description: 'Pending trigger inbox items, by source',
    unit: '{item}',
    kind: 'gauge',
    valueType: ValueType.INT,
    attributes: (labels) =>
      labels.state === 'pending'
        ? { 'agent_gateway.trigger.kind': labels.kind, 'agent_gateway.trigger.name': labels.name }
        : undefined,
  },
  {
    prom: 'agent_gateway_inbox_oldest_pending_age_seconds',
    name: 'agent_gateway.inbox.oldest_pending_age',
    description: 'Age of the oldest pending trigger inbox item, by source',
    unit: 's',
    kind: 'gauge',
    attributes: (labels) => ({ 'agent_gateway.trigger.kind': labels.kind, 'agent_gateway.trigger.name': labels.name }),
  },
];

/**
 * The gateway's metrics for OTLP, read from the Prometheus registries when the reader collects: every
 * observation is recorded once (in prom-client, for /metrics), so OTLP and /metrics hold the same values by
 * construction, and a request pays no second recording (the OpenTelemetry SDK hashes every attribute set).
 * Counters and histograms are cumulative from when the source was added; histograms have no min and max
 * (Prometheus keeps neither). Two apps in one process (tests) add a source each: their series are summed.
 */
export class PrometheusMetricProducer implements MetricProducer {
  private readonly sources = new Map<PrometheusMetricSource, HrTime>();

  constructor(private readonly resource: Resource) {}

  add(source: PrometheusMetricSource): () => void {
    this.sources.set(source, millisToHrTime(Date.now()));
    return () => this.sources.delete(source);
  }

  async collect(): Promise<CollectionResult> {
    const endTime = millisToHrTime(Date.now());
    const errors: unknown[] = [];
    const metrics: MetricData[] = [];
    const read = await Promise.all(
      MAPPINGS.map((mapping) =>
        Promise.all(
          [...this.sources].map(async ([source, startTime]) => {
            try {
              const metric = source.registry.getSingleMetric(mapping.prom);
              return metric ? { source, startTime, values: (await metric.get()).values } : undefined;
            } catch (error) {
              errors.push(error);
              return undefined;
            }
          }),
        ),
      ),
    );
    MAPPINGS.forEach((mapping, index) => {
      const data = toMetricData(mapping, read[index], endTime);
      if (data) metrics.push(data);
    });
    return {
      resourceMetrics: { resource: this.resource, scopeMetrics: [{ scope: { name: INSTRUMENTATION_NAME }, metrics }] },
      errors,
    };
  }
}

type Read = {
  source: PrometheusMetricSource;
  startTime: HrTime;
  values: MetricObjectWithValues<MetricValue<string>>['values'];
};

function toMetricData(mapping: Mapping, reads: (Read | undefined)[], endTime: HrTime): MetricData | undefined {
  const descriptor = {
    name: mapping.name,
    description: mapping.description,
    unit: mapping.unit,
    valueType: mapping.valueType ?? ValueType.DOUBLE,
  };
  if (mapping.kind === 'histogram') {
    const points = new Map<string, DataPoint<Histogram>>();
    for (const read of reads) if (read) addHistogramPoints(mapping, read, endTime, points);
    if (points.size === 0) return undefined;
    return {
      descriptor,
      aggregationTemporality: AggregationTemporality.CUMULATIVE,
      dataPointType: DataPointType.HISTOGRAM,
      dataPoints: [...points.values()],
    };
  }
  const points = new Map<string, { -readonly [K in keyof DataPoint<number>]: DataPoint<number>[K] }>();
  for (const read of reads) {
    if (!read) continue;
    for (const { labels, value } of read.values) {
      const attributes = mapping.attributes(labels, read.source);
      if (!attributes) continue;
      const key = JSON.stringify(attributes);
      const point = points.get(key);
      if (point) point.value += value;
      else points.set(key, { attributes, startTime: read.startTime, endTime, value });
    }
  }
  if (points.size === 0) return undefined;
  if (mapping.kind === 'gauge')
    return {
      descriptor,
      aggregationTemporality: AggregationTemporality.CUMULATIVE,
      dataPointType: DataPointType.GAUGE,
      dataPoints: [...points.values()],
    };
  return {
    descriptor,
    aggregationTemporality: AggregationTemporality.CUMULATIVE,
    dataPointType: DataPointType.SUM,
    isMonotonic: true,
    dataPoints: [...points.values()],
  };
}

// prom-client lists a histogram as cumulative `_bucket` values (by `le`, ending with +Inf), then `_sum` and
// `_count`; OTLP wants each bucket's own count, with the finite bounds as boundaries.
function addHistogramPoints(mapping: Mapping, read: Read, endTime: HrTime, points: Map<string, DataPoint<Histogram>>) {
  const series = new Map<string, { labels: Labels; le: number[]; cumulative: number[]; sum: number; count: number }>();
  for (const value of read.values as MetricValueWithName<string>[]) {
    const { le, ...labels } = value.labels as Labels;
    const key = JSON.stringify(labels);
    let entry = series.get(key);
    if (!entry) series.set(key, (entry = { labels, le: [], cumulative: [], sum: 0, count: 0 }));
    if (value.metricName?.endsWith('_bucket')) {
      if (le !== '+Inf') entry.le.push(Number(le));
      entry.cumulative.push(value.value);
    } else if (value.metricName?.endsWith('_sum')) entry.sum = value.value;
    else if (value.metricName?.endsWith('_count')) entry.count = value.value;
  }
  for (const entry of series.values()) {
    const attributes = mapping.attributes(entry.labels, read.source);
    if (!attributes) continue;
    const counts = entry.cumulative.map((value, index) => value - (index === 0 ? 0 : entry.cumulative[index - 1]));
    const key = JSON.stringify(attributes);
    const point = points.get(key);
    if (point) {
      point.value.count += entry.count;
      point.value.sum = (point.value.sum ?? 0) + entry.sum;
      point.value.buckets.counts = point.value.buckets.counts.map((count, index) => count + (counts[index] ?? 0));
    } else
      points.set(key, {
        attributes,
        startTime: read.startTime,
        endTime,
        value: { buckets: { boundaries: entry.le, counts }, sum: entry.sum, count: entry.count },
      });
  }
}
