import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RateLimitRejection } from './rate-limits.js';

/** Response header of chat completions: the gateway's own time, in milliseconds (docs/decisions/0056-gateway-overhead-and-metric-labels.md). */
export const GATEWAY_OVERHEAD_HEADER = 'x-gateway-overhead-ms';

/** A label value for anything outside the bounded set, so a series count never grows with traffic. */
export const OTHER_LABEL = '_other';

export interface MetricsOptions {
  /** Configured agents get their own label; others (transient autopilot agents) count as `_other`. */
  agentNames: Iterable<string>;
  /** Distinct model labels at most; later models count as `_other`. Default 64. */
  maxModels?: number;
  /** Gauges not handed in here or later by `track` read 0 (no series for the inbox). */
  gauges?: Partial<GaugeSources>;
}

/** What the gauges read when scraped; each feature hands in its own once built (`Metrics.track`). */
export interface GaugeSources {
  /** Runs executing in this process. */
  activeRuns(): number;
  /** Sessions active within the admin session window. */
  activeSessions(): Promise<number>;
  /** The trigger inbox's stored items per source. */
  inboxStats(): Promise<InboxObservation[]>;
}

/** Why a run failed, as far as metrics tell it: its error code, and for budget_exceeded which budget refused it. */
export interface RunEndError {
  code: string;
  refusal?: { budget: string; stage: string };
}

/** One trigger source's stored inbox items by state (a shape, so http/ stays a leaf). */
export interface InboxObservation {
  kind: string;
  name: string;
  pending: number;
  running: number;
  done: number;
  dead: number;
  ignored: number;
  oldest_pending_at: string | null;
}

const INBOX_STATES = ['pending', 'running', 'done', 'dead', 'ignored'] as const;

/** What the runtime reports; shapes, not types of other folders, so http/ stays a leaf. */
export interface UsageObservation {
  agent_name: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  status: 'ok' | 'error';
  /** The call's duration and time to its first part (null when it failed before one). */
  latency_ms: number;
  ttft_ms: number | null;
  provider: string;
  provider_type: string;
}

export interface Metrics {
  readonly registry: Registry;
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** A request refused by a rate limit (the gateway's own or a webhook's), not an upstream's 429. */
  observeRateLimitRejection(rejection: RateLimitRejection): void;
  observeOverhead(route: string, seconds: number): void;
  observeUsage(usage: UsageObservation): void;
  observeRisk(event: { agent_name: string; type: string; action: string }): void;
  observeRunEnd(agentName: string, status: string, error?: RunEndError): void;
  /** Hands in what some gauges read when scraped (a feature, once built). */
  track(sources: Partial<GaugeSources>): void;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
// The GenAI semantic conventions' advised buckets (gen_ai.client.operation.duration, gen_ai.client.token.usage).
const GEN_AI_DURATION_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];
const GEN_AI_TOKEN_BUCKETS = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
];
const TPOT_BUCKETS = [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 2.5];
// The gateway's own share is meant to be sub-millisecond to a few milliseconds.
const OVERHEAD_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

/** A Prometheus registry of its own per app, so two apps in one process (tests) never share series. */
export function createMetrics(options: MetricsOptions): Metrics {
  const gauges: Partial<GaugeSources> = { ...options.gauges };
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const requests = new Counter({
    name: 'agent_gateway_http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'],
    registers,
  });
  const duration = new Histogram({
    name: 'agent_gateway_http_request_duration_seconds',
    help: 'HTTP request time until the response ended',
    labelNames: ['method', 'route'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const overhead = new Histogram({
    name: 'agent_gateway_overhead_seconds',
    help: 'Request time minus the time spent waiting on model and tool calls (streams: to the first byte)',
    labelNames: ['route'],
    buckets: OVERHEAD_BUCKETS,
    registers,
  });
  const tokens = new Counter({
    name: 'agent_gateway_tokens_total',
    help: 'Model tokens by agent, model and kind (input includes cached)',
    labelNames: ['agent', 'model', 'kind'],
    registers,
  });
  const cost = new Counter({
    name: 'agent_gateway_cost_usd_total',
    help: 'Model cost in USD by agent and model',
    labelNames: ['agent', 'model'],
    registers,
  });
  const calls = new Counter({
    name: 'agent_gateway_model_calls_total',
    help: 'Model calls by agent, model and status',
    labelNames: ['agent', 'model', 'status'],
    registers,
  });
  const risks = new Counter({
    name: 'agent_gateway_guardrail_events_total',
    help: 'Guardrail hits by agent, type and action',
    labelNames: ['agent', 'type', 'action'],
    registers,
  });
  const runs = new Counter({
    name: 'agent_gateway_runs_total',
    help: 'Finished runs by agent and status',
    labelNames: ['agent', 'status'],
    registers,
  });
  const tokenUsage = new Histogram({
    name: 'gen_ai_client_token_usage',
    help: 'Tokens per model call (GenAI semantic conventions), by agent, model and token type',
    labelNames: ['agent', 'model', 'token_type'],
    buckets: GEN_AI_TOKEN_BUCKETS,
    registers,
  });
  const operationDuration = new Histogram({
    name: 'gen_ai_client_operation_duration_seconds',
    help: 'Model call duration (GenAI semantic conventions), by agent, model and status',
    labelNames: ['agent', 'model', 'status'],
    buckets: GEN_AI_DURATION_BUCKETS,
    registers,
  });
  const ttft = new Histogram({
    name: 'gen_ai_server_time_to_first_token_seconds',
    help: 'Time from a model call to its first streamed part, by agent and model',
    labelNames: ['agent', 'model'],
    buckets: GEN_AI_DURATION_BUCKETS,
    registers,
  });
  const tpot = new Histogram({
    name: 'gen_ai_server_time_per_output_token_seconds',
    help: 'Time per output token after the first, by agent and model',
    labelNames: ['agent', 'model'],
    buckets: TPOT_BUCKETS,
    registers,
  });
  const rateLimited = new Counter({
    name: 'agent_gateway_rate_limit_rejections_total',
    help: 'Requests refused by a rate limit, by route, agent, limited subject and reason (requests or tokens)',
    labelNames: ['route', 'agent', 'subject', 'reason'],
    registers,
  });
  const rejections = new Counter({
    name: 'agent_gateway_budget_rejections_total',
    help: 'Runs refused (stage admission) or stopped (stage model_call) by a budget, by agent and budget',
    labelNames: ['agent', 'budget', 'stage'],
    registers,
  });
  new Gauge({
    name: 'agent_gateway_active_runs',
    help: 'Runs executing in this process',
    registers,
    collect() {
      this.set(gauges.activeRuns?.() ?? 0);
    },
  });
  new Gauge({
    name: 'agent_gateway_active_sessions',
    help: 'Sessions active within the admin session window that their caller named or continued',
    registers,
    async collect() {
      this.set((await gauges.activeSessions?.()) ?? 0);
    },
  });
  // Both inbox gauges are collected in the same scrape: they share one read of the store.
  let inboxRead: Promise<InboxObservation[]> | undefined;
  const readInbox = () =>
    (inboxRead ??= (gauges.inboxStats?.() ?? Promise.resolve([])).finally(() => (inboxRead = undefined)));
  new Gauge({
    name: 'agent_gateway_inbox_items',
    help: 'Trigger inbox items stored now (every replica), by source and state',
    labelNames: ['kind', 'name', 'state'],
    registers,
    async collect() {
      const sources = await readInbox();
      this.reset();
      for (const source of sources)
        for (const state of INBOX_STATES) this.set({ kind: source.kind, name: source.name, state }, source[state]);
    },
  });
  new Gauge({
    name: 'agent_gateway_inbox_oldest_pending_age_seconds',
    help: 'Age of the oldest pending trigger inbox item, by source (0 when none is pending)',
    labelNames: ['kind', 'name'],
    registers,
    async collect() {
      const sources = await readInbox();
      this.reset();
      const now = Date.now();
      for (const source of sources)
        this.set(
          { kind: source.kind, name: source.name },
          source.oldest_pending_at ? Math.max(0, (now - Date.parse(source.oldest_pending_at)) / 1000) : 0,
        );
    },
  });

  const agentLabel = boundedLabel(new Set(options.agentNames), 0);
  const modelLabel = boundedLabel(new Set(), options.maxModels ?? 64);
  return {
    registry,
    track(sources) {
      Object.assign(gauges, sources);
    },
    observeRequest(method, route, status, seconds) {
      requests.inc({ method, route, status });
      duration.observe({ method, route }, seconds);
    },
    observeRateLimitRejection(rejection) {
      const agent = rejection.agent === undefined ? '' : agentLabel(rejection.agent);
      rateLimited.inc({ route: rejection.route, agent, subject: rejection.subject, reason: rejection.limit });
    },
    observeOverhead(route, seconds) {
      overhead.observe({ route }, seconds);
    },
    observeUsage(usage) {
      const agent = agentLabel(usage.agent_name);
      const model = modelLabel(usage.model);
      const labels = { agent, model };
      const { status } = usage;
      tokens.inc({ agent, model, kind: 'input' }, usage.input_tokens);
      tokens.inc({ agent, model, kind: 'output' }, usage.output_tokens);
      cost.inc(labels, usage.cost_usd);
      calls.inc({ agent, model, status });
      operationDuration.observe({ agent, model, status }, usage.latency_ms / 1000);
      if (status === 'ok') {
        tokenUsage.observe({ agent, model, token_type: 'input' }, usage.input_tokens);
        tokenUsage.observe({ agent, model, token_type: 'output' }, usage.output_tokens);
      }
      if (usage.ttft_ms !== null) {
        ttft.observe(labels, usage.ttft_ms / 1000);
        if (usage.output_tokens > 1)
          tpot.observe(labels, (usage.latency_ms - usage.ttft_ms) / 1000 / (usage.output_tokens - 1));
      }
    },
    observeRisk: (event) => risks.inc({ agent: agentLabel(event.agent_name), type: event.type, action: event.action }),
    observeRunEnd(agentName, status, error) {
      const agent = agentLabel(agentName);
      runs.inc({ agent, status });
      if (error?.code === 'budget_exceeded')
        rejections.inc({ agent, budget: error.refusal?.budget ?? 'unknown', stage: error.refusal?.stage ?? 'unknown' });
    },
  };
}

/** Known values pass; up to `extra` more are admitted as they appear; the rest read `_other`. */
function boundedLabel(known: Set<string>, extra: number): (value: string) => string {
  let admitted = 0;
  return (value) => {
    if (known.has(value)) return value;
    if (admitted >= extra) return OTHER_LABEL;
    admitted += 1;
    known.add(value);
    return value;
  };
}
