import type { ProviderConfig } from '../config/index.js';
import { createAiSdkTransport } from './ai-sdk/create-ai-sdk-transport.js';
import type { ModelTransport } from './model-transport.js';
import { createOpenAiChatTransport } from './openai-chat/create-openai-chat-transport.js';
import type { ModelInfo } from './types.js';
import type { Logger } from '../logger.js';

/** The dev model never calls out, so it needs no timeout or retries beyond these. */
const DEV_CALL_SETTINGS = { timeout_ms: 120_000, max_retries: 0 };

/** One configured provider, ready to open model calls. */
export interface ProviderEntry extends ModelTransport {
  name: string;
  type: ModelInfo['providerType'];
  timeoutMs: number;
  /** The longest silence of the upstream before a part, or between two; undefined: timeoutMs alone. */
  stallTimeoutMs: number | undefined;
  maxRetries: number;
  /** Never echoed in messages or logs. */
  secrets: string[];
  /** Its base_url's host: logged when a call fails, never in the error a caller reads. */
  hosts: string[];
}

export interface ProviderEntryOptions {
  /** Used by the AI SDK providers (openai, anthropic); openai-compatible ones use their own undici Pool. */
  fetch?: typeof fetch;
  logger?: Logger;
}

export function createProviderEntry(
  name: string,
  config: ProviderConfig,
  options: ProviderEntryOptions = {},
): ProviderEntry {
  const settings = config.type === 'dev' ? DEV_CALL_SETTINGS : config;
  const secrets =
    config.type === 'dev'
      ? []
      : [config.api_key ?? '', ...Object.values(config.headers)].filter((value) => value.length >= 8);
  // openai keeps the AI SDK for OpenAI's model quirks (reasoning models, max_completion_tokens, developer role).
  const transport =
    config.type === 'openai-compatible'
      ? createOpenAiChatTransport(config)
      : createAiSdkTransport(name, config, options);
  return {
    name,
    type: config.type,
    timeoutMs: settings.timeout_ms,
    stallTimeoutMs: config.type === 'dev' ? undefined : config.stall_timeout_ms,
    maxRetries: settings.max_retries,
    secrets,
    hosts:
      config.type !== 'dev' && config.base_url
        ? [new URL(config.base_url).host, new URL(config.base_url).hostname]
        : [],
    openStream: (modelId, request, signal) => transport.openStream(modelId, request, signal),
  };
}
