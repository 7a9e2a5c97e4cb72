import { metrics, ValueType, type Attributes } from '@opentelemetry/api';
import { mapProviderName } from './chat-span.js';
import { ERROR_TYPE, GEN_AI } from './gen-ai-attributes.js';
import { INSTRUMENTATION_NAME } from './tracer.js';

/** One model call as the runtime reports it (a shape, so telemetry/ imports no feature folder). */
export interface ModelCallObservation {
  agent_name: string;
  provider: string;
  provider_type: string;
  /** `<provider>/<model id>`. */
  model: string;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  latency_ms: number;
  ttft_ms: number | null;
  status: 'ok' | 'error';
}

export interface InboxGaugeObservation {
  kind: string;
  name: string;
  pending: number;
  oldest_pending_at: string | null;
}

/** A request refused by a rate limit (shape of http/'s RateLimitRejection). */
export interface RateLimitObservation {
  route: string;
  agent?: string;
  subject: string;
  limit: string;
}

/** The GenAI and gateway metrics pushed over OTLP; the same values are on /metrics (http/metrics.ts). */
export interface GenAiMetrics {
  observeModelCall(call: ModelCallObservation): void;
  observeRunEnd(
    agentName: string,
    status: string,
    error?: { code: string; refusal?: { budget: string; stage: string } },
  ): void;
  observeOverhead(route: string, seconds: number): void;
  observeRateLimitRejection(rejection: RateLimitObservation): void;
}

// The conventions' advised buckets for gen_ai.client.operation.duration and gen_ai.client.token.usage.
const DURATION_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];
const TPOT_BUCKETS = [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 2.5];

/**
 * Instruments on the global meter: the SDK's when telemetry is on, the API's no-op otherwise (so this is
 * built either way, and costs a no-op call per observation when off).
 */
export function createGenAiMetrics(inboxStats?: () => Promise<InboxGaugeObservation[]>): GenAiMetrics {
  const meter = metrics.getMeter(INSTRUMENTATION_NAME);
  const tokens = meter.createHistogram('gen_ai.client.token.usage', {
    description: 'Tokens used per model call, by gen_ai.token.type (input, output)',
    unit: '{token}',
    valueType: ValueType.INT,
    advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
  });
  const duration = meter.createHistogram('gen_ai.client.operation.duration', {
    description: 'Model call duration, as the gateway waited on the upstream',
    unit: 's',
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  });
  const ttft = meter.createHistogram('gen_ai.server.time_to_first_token', {
    description: 'Time from the model call to its first streamed part',
    unit: 's',
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  });
  const tpot = meter.createHistogram('gen_ai.server.time_per_output_token', {
    description: 'Time per output token after the first one',
    unit: 's',
    advice: { explicitBucketBoundaries: TPOT_BUCKETS },
  });
  const cost = meter.createCounter('agent_gateway.cost', { description: 'Model cost', unit: 'USD' });
  const overhead = meter.createHistogram('agent_gateway.overhead', {
    description: 'Request time minus the time spent waiting on model and tool calls',
    unit: 's',
  });
  const runs = meter.createCounter('agent_gateway.runs', { description: 'Finished runs by outcome', unit: '{run}' });
  const budgetRejections = meter.createCounter('agent_gateway.budget.rejections', {
    description: 'Runs refused (admission) or stopped (before a later model call) by a budget',
    unit: '{run}',
  });
  const rateLimitRejections = meter.createCounter('agent_gateway.rate_limit.rejections', {
    description: 'Requests refused by a rate limit',
    unit: '{request}',
  });
  if (inboxStats) observeInbox(meter, inboxStats);

  return {
    observeModelCall(call) {
      const attributes: Attributes = {
        [GEN_AI.OPERATION_NAME]: 'chat',
        [GEN_AI.PROVIDER_NAME]: mapProviderName(call.provider, call.provider_type),
        [GEN_AI.REQUEST_MODEL]: call.model.slice(call.model.indexOf('/') + 1),
        [GEN_AI.AGENT_NAME]: call.agent_name,
      };
      duration.record(
        call.latency_ms / 1000,
        call.status === 'ok' ? attributes : { ...attributes, [ERROR_TYPE]: 'error' },
      );
      if (call.status === 'ok') {
        tokens.record(call.input_tokens, { ...attributes, [GEN_AI.TOKEN_TYPE]: 'input' });
        tokens.record(call.output_tokens, { ...attributes, [GEN_AI.TOKEN_TYPE]: 'output' });
      }
      if (call.ttft_ms !== null) {
        ttft.record(call.ttft_ms / 1000, attributes);
        if (call.output_tokens > 1)
          tpot.record((call.latency_ms - call.ttft_ms) / 1000 / (call.output_tokens - 1), attributes);
      }
      if (call.cost_usd > 0) cost.add(call.cost_usd, attributes);
    },
    observeRunEnd(agentName, status, error) {
      runs.add(1, { [GEN_AI.AGENT_NAME]: agentName, 'agent_gateway.run.status': status });
      if (error?.code === 'budget_exceeded')
        budgetRejections.add(1, {
          [GEN_AI.AGENT_NAME]: agentName,
          'agent_gateway.budget.name': error.refusal?.budget ?? 'unknown',
          'agent_gateway.budget.stage': error.refusal?.stage ?? 'unknown',
        });
    },
    observeOverhead: (route, seconds) => overhead.record(seconds, { 'http.route': route }),
    observeRateLimitRejection: (rejection) =>
      rateLimitRejections.add(1, {
        'http.route': rejection.route,
        ...(rejection.agent !== undefined && { [GEN_AI.AGENT_NAME]: rejection.agent }),
        'agent_gateway.rate_limit.subject': rejection.subject,
        'agent_gateway.rate_limit.reason': rejection.limit,
      }),
  };
}

function observeInbox(meter: ReturnType<typeof metrics.getMeter>, inboxStats: () => Promise<InboxGaugeObservation[]>) {
  const depth = meter.createObservableGauge('agent_gateway.inbox.depth', {
    description: 'Pending trigger inbox items, by source',
    unit: '{item}',
  });
  const age = meter.createObservableGauge('agent_gateway.inbox.oldest_pending_age', {
    description: 'Age of the oldest pending trigger inbox item, by source',
    unit: 's',
  });
  meter.addBatchObservableCallback(
    async (result) => {
      const now = Date.now();
      for (const source of await inboxStats()) {
        const attributes = { 'agent_gateway.trigger.kind': source.kind, 'agent_gateway.trigger.name': source.name };
        result.observe(depth, source.pending, attributes);
        const oldest = source.oldest_pending_at ? Math.max(0, (now - Date.parse(source.oldest_pending_at)) / 1000) : 0;
        result.observe(age, oldest, attributes);
      }
    },
    [depth, age],
  );
}
