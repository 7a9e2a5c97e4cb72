import { z } from 'zod';

const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

const PROTOCOLS = ['http/json', 'http/protobuf'] as const;

const DEFAULTS = {
  enabled: false,
  protocol: 'http/protobuf' as const,
  service_name: 'agent-gateway',
  sampler: 'parentbased_always_on' as const,
  sampler_arg: 1,
  capture_content: false,
  export_interval_ms: 60_000,
};

/**
 * OpenTelemetry traces and metrics over OTLP/HTTP (docs/observability.md). Off by default: nothing of the
 * SDK is loaded then. The standard OTEL_* variables override these (config/env.ts).
 */
export const telemetrySchema = z
  .strictObject({
    enabled: z.boolean().default(DEFAULTS.enabled),
    /** The collector's base URL; `/v1/traces` and `/v1/metrics` are appended. Unset: http://localhost:4318. */
    endpoint: z.url().optional(),
    /** How spans are encoded (metrics are JSON either way); protobuf costs less CPU per span (docs/observability.md#cost). */
    protocol: z.enum(PROTOCOLS).default(DEFAULTS.protocol),
    /** Extra headers on every export (an API key of a hosted backend). */
    headers: z.record(z.string(), z.string()).default({}),
    service_name: z.string().min(1).default(DEFAULTS.service_name),
    /** OTEL_TRACES_SAMPLER's names. */
    sampler: z.enum(SAMPLERS).default(DEFAULTS.sampler),
    /** The ratio of the traceidratio samplers. */
    sampler_arg: z.number().min(0).max(1).default(DEFAULTS.sampler_arg),
    /** Prompts and completions on the chat spans (redacted by the agent's PII guardrail first). */
    capture_content: z.boolean().default(DEFAULTS.capture_content),
    /** How often metrics are pushed. */
    export_interval_ms: z.number().int().min(100).default(DEFAULTS.export_interval_ms),
  })
  .default({ ...DEFAULTS, headers: {} });

export type TelemetryConfig = z.infer<typeof telemetrySchema>;
export type TelemetrySampler = TelemetryConfig['sampler'];

/**
 * The OTEL_* variables (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/)
 * over the file's values. OTEL_SDK_DISABLED=true turns telemetry off; an OTLP endpoint turns it on.
 */
export function applyTelemetryEnv(config: TelemetryConfig, env: NodeJS.ProcessEnv, errors: string[]): TelemetryConfig {
  const next: TelemetryConfig = { ...config, headers: { ...config.headers } };
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (endpoint) {
    const parsed = z.url().safeParse(endpoint);
    if (parsed.success) Object.assign(next, { endpoint: parsed.data, enabled: true });
    else errors.push(`environment variable OTEL_EXPORTER_OTLP_ENDPOINT: expected a URL, got "${endpoint}"`);
  }
  if (env.OTEL_SERVICE_NAME) next.service_name = env.OTEL_SERVICE_NAME;
  const sampler = env.OTEL_TRACES_SAMPLER;
  if (sampler) {
    const parsed = z.enum(SAMPLERS).safeParse(sampler);
    if (parsed.success) next.sampler = parsed.data;
    else errors.push(`environment variable OTEL_TRACES_SAMPLER: expected one of ${SAMPLERS.join(', ')}`);
  }
  const arg = env.OTEL_TRACES_SAMPLER_ARG;
  if (arg) {
    const ratio = Number(arg);
    if (ratio >= 0 && ratio <= 1) next.sampler_arg = ratio;
    else errors.push(`environment variable OTEL_TRACES_SAMPLER_ARG: expected a number from 0 to 1, got "${arg}"`);
  }
  // OTLP over HTTP only (a collector's port 4318 takes both encodings); the traces' own variable wins.
  for (const name of ['OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL']) {
    const protocol = env[name];
    if (!protocol) continue;
    const parsed = z.enum(PROTOCOLS).safeParse(protocol);
    if (parsed.success) next.protocol = parsed.data;
    else errors.push(`environment variable ${name}: only OTLP over HTTP is supported, got "${protocol}"`);
  }
  for (const pair of (env.OTEL_EXPORTER_OTLP_HEADERS ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at > 0) next.headers[pair.slice(0, at).trim()] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  if (env.OTEL_METRIC_EXPORT_INTERVAL && Number(env.OTEL_METRIC_EXPORT_INTERVAL) >= 100)
    next.export_interval_ms = Number(env.OTEL_METRIC_EXPORT_INTERVAL);
  const captureContent = env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.toLowerCase();
  if (captureContent) next.capture_content = captureContent === 'true';
  if (env.OTEL_SDK_DISABLED?.toLowerCase() === 'true') next.enabled = false;
  return next;
}
