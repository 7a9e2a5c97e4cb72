import type { ProvidersConfig } from '../config/index.js';
import { ValidationError } from '../errors.js';
import { createProviderEntry, type ProviderEntry } from './create-provider-entry.js';
import { generateModelCall } from './generate-model-call.js';
import { createRouteTarget, type ModelCall, type RouteTarget } from './model-call.js';
import { parseModelRef } from './parse-model-ref.js';
import { DEFAULT_RETRY_SETTINGS, type RetrySettings } from './retry-policy.js';
import { streamModelCall } from './stream-model-call.js';
import type { ModelCallRequest, ModelClient } from './types.js';
import type { Logger } from '../logger.js';

export interface ModelClientOptions {
  providers: ProvidersConfig;
  logger?: Logger;
  /**
   * The fetch of the AI SDK providers (openai, anthropic); defaults to the global fetch. openai-compatible
   * providers ignore it: their lean client keeps one undici Pool per provider.
   */
  fetch?: typeof fetch;
  /** Backoff tuning; tests shorten it. */
  retry?: Partial<RetrySettings>;
}

/** Builds the ModelClient over every configured provider. Opens no connection until the first call. */
export function createModelClient(options: ModelClientOptions): ModelClient {
  const retry: RetrySettings = { ...DEFAULT_RETRY_SETTINGS, ...options.retry };
  const entries = new Map<string, ProviderEntry>();
  for (const [name, config] of Object.entries(options.providers)) {
    entries.set(name, createProviderEntry(name, config, { fetch: options.fetch, logger: options.logger }));
    if (config.type === 'dev') {
      options.logger?.warn(
        { provider: name },
        `provider "${name}" is the offline development model: it echoes messages and is not a real LLM (see docs/dev-model.md)`,
      );
    }
  }

  function resolve(model: string): { entry: ProviderEntry; modelId: string } {
    const ref = parseModelRef(model);
    const entry = entries.get(ref.provider);
    if (!entry) {
      const configured = [...entries.keys()].join(', ') || 'none';
      throw new ValidationError(
        `model "${model}" names provider "${ref.provider}", which is not configured (configured providers: ${configured})`,
        'unknown_provider',
      );
    }
    return { entry, modelId: ref.modelId };
  }

  function target(model: string): RouteTarget {
    const { entry, modelId } = resolve(model);
    return createRouteTarget(model, entry, modelId);
  }

  function prepare(request: ModelCallRequest): ModelCall {
    const targets = [request.model, ...(request.fallbackModels ?? [])].map(target);
    return { request, targets, retry, logger: options.logger };
  }

  return {
    describe(model) {
      const { entry, modelId } = resolve(model);
      return { provider: entry.name, modelId, providerType: entry.type };
    },
    stream: (request) => streamModelCall(prepare(request)),
    generate: async (request) => generateModelCall(prepare(request)),
  };
}
