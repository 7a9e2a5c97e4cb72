export { configSchema, type Config } from './config.schema.js';
export {
  loadConfig,
  parseConfigText,
  BUNDLED_CONFIG_PATH,
  type LoadedConfig,
  type LoadConfigOptions,
} from './load-config.js';
export type { ConfigOverrides } from './env.js';
export type { AgentConfig } from './agents.schema.js';
export { AGENT_NAME_PATTERN } from './agents.schema.js';
export type { AuthConfig } from './auth.schema.js';
export type { GatewayConfig } from './gateway.schema.js';
export { guardrailsSchema, guardrailsOverrideSchema, PII_TYPES } from './guardrails.schema.js';
export type {
  ContentFilterConfig,
  GuardrailsConfig,
  GuardrailsOverrideConfig,
  HallucinationConfig,
  PiiConfig,
  PiiType,
} from './guardrails.schema.js';
export type { PricingConfig } from './pricing.schema.js';
export type { ProviderConfig, ProvidersConfig } from './providers.schema.js';
export { perMinuteLimitSchema, type PerMinuteLimit } from './rate-limit.schema.js';
export type { RunsConfig } from './runs.schema.js';
export { DEFAULT_MAX_JSON_DEPTH, type ServerConfig } from './server.schema.js';
export { STANDARD_WEBHOOKS_SECRET_PREFIX, WEBHOOK_VERIFICATIONS } from './webhooks.schema.js';
export type {
  RateLimitConfig,
  WebhookConfig,
  WebhookHandlerConfig,
  WebhookSettings,
  WebhooksConfig,
  WebhookVerification,
} from './webhooks.schema.js';
export type { BuiltinToolConfig, HttpToolConfig, McpToolConfig, ToolsConfig } from './tools.schema.js';
export { BUILTIN_TOOL_NAMES } from './tools.schema.js';
export { resolveClientSettings, splitHostPort, type ClientAddressFlags, type ClientSettings } from './client-env.js';
export { applyAutopilotEnv, autopilotSchema, type AutopilotConfig } from './autopilot.schema.js';
export {
  a2aSchema,
  DELEGATE_TOOL_NAME,
  type A2aConfig,
  type A2aPushConfig,
  type A2aRemoteConfig,
} from './a2a.schema.js';
export type { PollerConfig, PollersConfig } from './pollers.schema.js';
export type { ListenerConfig, ListenerSource, ListenersConfig } from './listeners.schema.js';
export type { TriggerSettings } from './trigger-settings.schema.js';
export { telemetrySchema, type TelemetryConfig, type TelemetrySampler } from './telemetry.schema.js';
export type { UiConfig } from './ui.schema.js';
