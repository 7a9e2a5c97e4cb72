import type { LanguageModelV3, SharedV3Warning } from '@ai-sdk/provider';
import type { ProviderConfig } from '../../config/index.js';
import { injectTraceHeaders } from '../../telemetry/index.js';
import { createDevModel } from '../dev/dev-model.js';
import type { ModelTransport } from '../model-transport.js';

import { convertToCallSettings } from './convert-to-call-settings.js';
import {
  convertToolChoice,
  convertToPrompt,
  convertToTools,
  mergeProviderOptions,
  parallelToolCallOptions,
} from './convert-to-prompt.js';
import { createAiSdkPartReader } from './create-ai-sdk-part-reader.js';
import type { Logger } from '../../logger.js';

/** The provider types served through the AI SDK; openai-compatible has its own lean client. */
export type AiSdkProviderConfig = Exclude<ProviderConfig, { type: 'openai-compatible' }>;

export interface AiSdkTransportOptions {
  fetch?: typeof fetch;
  logger?: Logger;
}

/**
 * The provider's model factory. The AI SDK provider packages load on the first call, so a config that does not
 * use them (the bundled one: dev only) never loads them (start-up time and idle memory).
 */
async function createModelFactory(
  name: string,
  config: AiSdkProviderConfig,
  fetchImpl: typeof fetch | undefined,
): Promise<(modelId: string) => LanguageModelV3> {
  switch (config.type) {
    case 'openai': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      const provider = createOpenAI({
        name,
        apiKey: config.api_key,
        baseURL: config.base_url,
        organization: config.organization,
        headers: config.headers,
        fetch: fetchImpl,
      });
      // Chat Completions (not Responses): it is what OpenAI-compatible fakes and proxies speak too.
      return (modelId) => provider.chat(modelId);
    }
    case 'anthropic': {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      const provider = createAnthropic({
        name,
        apiKey: config.api_key,
        baseURL: config.base_url,
        headers: config.headers,
        fetch: fetchImpl,
      });
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

/** Streams through an AI SDK language model, which knows the provider's quirks (reasoning models, Anthropic's API). */
export function createAiSdkTransport(
  name: string,
  config: AiSdkProviderConfig,
  options: AiSdkTransportOptions = {},
): ModelTransport {
  let factory: Promise<(modelId: string) => LanguageModelV3> | undefined;
  const models = new Map<string, LanguageModelV3>();
  const reportedWarnings = new Set<string>();

  async function modelFor(modelId: string): Promise<LanguageModelV3> {
    let model = models.get(modelId);
    if (!model) {
      factory ??= createModelFactory(name, config, options.fetch);
      model = (await factory)(modelId);
      models.set(modelId, model);
    }
    return model;
  }

  /** Logs what the provider changed or dropped (say, a temperature the model rejects), once per model and warning. */
  function reportWarnings(modelId: string, warnings: SharedV3Warning[]): void {
    for (const warning of warnings) {
      const text =
        warning.type === 'other'
          ? warning.message
          : `${warning.feature}${warning.details ? `: ${warning.details}` : ''}`;
      const key = `${modelId}\u0000${warning.type}\u0000${text}`;
      if (reportedWarnings.has(key)) continue;
      reportedWarnings.add(key);
      options.logger?.warn(
        { provider: name, model: modelId, warning: warning.type },
        `model call setting adjusted by the provider: ${text}`,
      );
    }
  }

  return {
    async openStream(modelId, request, signal) {
      const tools = convertToTools(request.tools);
      const settings = convertToCallSettings(request.options);
      const { stream } = await (
        await modelFor(modelId)
      ).doStream({
        prompt: convertToPrompt(request.messages),
        temperature: request.temperature,
        maxOutputTokens: request.maxTokens,
        ...settings,
        ...(tools && { tools, toolChoice: convertToolChoice(request.toolChoice) }),
        providerOptions: mergeProviderOptions(
          settings.providerOptions,
          tools && parallelToolCallOptions(request.parallelToolCalls),
        ),
        abortSignal: signal,
        // Per call: the trace context is the call's own span, not the provider's.
        headers: injectTraceHeaders({}, request.trace),
      });
      return createAiSdkPartReader(stream, (warnings) => reportWarnings(modelId, warnings));
    },
  };
}
