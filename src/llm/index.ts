export { createModelClient, type ModelClientOptions } from './create-model-client.js';
export type { RetrySettings } from './retry-policy.js';
export type {
  ChatMessage,
  FinishReason,
  JsonSchemaObject,
  ModelAttempt,
  ModelCallOptions,
  ModelCallRequest,
  ModelCallResult,
  ModelClient,
  ModelInfo,
  ModelStreamPart,
  ReportedUsage,
  ResponseFormat,
  ToolCall,
  ToolChoice,
  ToolDefinition,
  Usage,
} from './types.js';
export { assertOptionsSupported } from './call-options.js';
export { countMessageTokens, countPromptTokens, countToolDefinitionTokens } from './count-tokens.js';
export { estimateUsage, mapUsage, type UsageContext } from './map-usage.js';
export { createPricing, type Price, type Pricing, type PricingOptions } from './pricing.js';
