import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { ProviderConfig } from '../config/index.js';
import { createDevModel } from './dev/dev-model.js';
import type { ModelInfo } from './types.js';

/** The dev model never calls out, so it needs no timeout or retries beyond these. */
const DEV_CALL_SETTINGS = { timeout_ms: 120_000, max_retries: 0 };

/** One configured provider, ready to hand out language models. */
export interface ProviderEntry {
  name: string;
  type: ModelInfo['providerType'];
  timeoutMs: number;
  maxRetries: number;
  /** Never echoed in messages or logs. */
  secrets: string[];
  /** Provider warnings already logged, so each is logged once. */
  reportedWarnings: Set<string>;
  languageModel(modelId: string): LanguageModelV3;
}

export interface ProviderEntryOptions {
  fetch?: typeof fetch;
}

function createModelFactory(name: string, config: ProviderConfig, options: ProviderEntryOptions): (modelId: string) => LanguageModelV3 {
  switch (config.type) {
    case 'openai': {
      const provider = createOpenAI({ name, apiKey: config.api_key, baseURL: config.base_url, organization: config.organization, headers: config.headers, fetch: options.fetch });
      // Chat Completions (not Responses): it is what OpenAI-compatible fakes and proxies speak too.
      return (modelId) => provider.chat(modelId);
    }
    case 'openai-compatible': {
      const provider = createOpenAICompatible({ name, baseURL: config.base_url, apiKey: config.api_key, headers: config.headers, includeUsage: true, fetch: options.fetch });
      return (modelId) => provider.chatModel(modelId);
    }
    case 'anthropic': {
      const provider = createAnthropic({ name, apiKey: config.api_key, baseURL: config.base_url, headers: config.headers, fetch: options.fetch });
      return (modelId) => provider.messages(modelId);
    }
    case 'dev':
      return (modelId) => createDevModel({ provider: name, modelId });
    default: {
      const exhaustive: never = config;
      throw new Error(`unknown provider type in ${JSON.stringify(exhaustive)}`);
    }
  }
}

export function createProviderEntry(name: string, config: ProviderConfig, options: ProviderEntryOptions = {}): ProviderEntry {
  const settings = config.type === 'dev' ? DEV_CALL_SETTINGS : config;
  const secrets = config.type === 'dev' ? [] : [config.api_key ?? '', ...Object.values(config.headers)].filter((value) => value.length >= 8);
  const factory = createModelFactory(name, config, options);
  const models = new Map<string, LanguageModelV3>();
  return {
    name,
    type: config.type,
    timeoutMs: settings.timeout_ms,
    maxRetries: settings.max_retries,
    secrets,
    reportedWarnings: new Set(),
    languageModel(modelId) {
      let model = models.get(modelId);
      if (!model) {
        model = factory(modelId);
        models.set(modelId, model);
      }
      return model;
    },
  };
}
