export { configSchema, type Config } from './config.schema.js';
export {
  loadConfig,
  parseConfigText,
  BUNDLED_CONFIG_PATH,
  type LoadedConfig,
  type LoadConfigOptions,
} from './load-config.js';
export type { ConfigOverrides } from './env.js';
export type { AgentConfig } from './schemas/agents.schema.js';
export { AGENT_NAME_PATTERN } from './schemas/agents.schema.js';
export type { AuthConfig } from './schemas/auth.schema.js';
export type { GatewayConfig } from './schemas/gateway.schema.js';
export { guardrailsSchema, guardrailsOverrideSchema, PII_TYPES } from './schemas/guardrails.schema.js';
export type {
  ContentFilterConfig,
  GuardrailsConfig,
  GuardrailsOverrideConfig,
  HallucinationConfig,
  PiiConfig,
  PiiType,
} from './schemas/guardrails.schema.js';
export type { PricingConfig } from './schemas/pricing.schema.js';
export type { ProviderConfig, ProvidersConfig } from './schemas/providers.schema.js';
export { perMinuteLimitSchema, type PerMinuteLimit } from './schemas/rate-limit.schema.js';
export type { RunsConfig } from './schemas/runs.schema.js';
export { DEFAULT_MAX_JSON_DEPTH, type ServerConfig } from './schemas/server.schema.js';
export { STANDARD_WEBHOOKS_SECRET_PREFIX, WEBHOOK_VERIFICATIONS } from './schemas/webhooks.schema.js';
export type {
  RateLimitConfig,
  WebhookConfig,
  WebhookHandlerConfig,
  WebhookSettings,
  WebhooksConfig,
  WebhookVerification,
} from './schemas/webhooks.schema.js';
export type { BuiltinToolConfig, HttpToolConfig, McpToolConfig, ToolsConfig } from './schemas/tools.schema.js';
export { BUILTIN_TOOL_NAMES } from './schemas/tools.schema.js';
export { resolveClientSettings, splitHostPort, type ClientAddressFlags, type ClientSettings } from './client-env.js';
export { applyAutopilotEnv, autopilotSchema, type AutopilotConfig } from './schemas/autopilot.schema.js';
export {
  a2aSchema,
  DELEGATE_TOOL_NAME,
  type A2aConfig,
  type A2aPushConfig,
  type A2aRemoteConfig,
} from './schemas/a2a.schema.js';
export type { PollerConfig, PollersConfig } from './schemas/pollers.schema.js';
export type { ListenerConfig, ListenerSource, ListenersConfig } from './schemas/listeners.schema.js';
export type { TriggerSettings } from './schemas/trigger-settings.schema.js';
export { telemetrySchema, type TelemetryConfig, type TelemetrySampler } from './schemas/telemetry.schema.js';
export type { UiConfig } from './schemas/ui.schema.js';
