import type { LanguageModelV3CallOptions, SharedV3ProviderOptions } from '@ai-sdk/provider';
import type { ModelCallOptions } from '../types.js';

type CallSettings = Pick<
  LanguageModelV3CallOptions,
  'topP' | 'stopSequences' | 'seed' | 'presencePenalty' | 'frequencyPenalty' | 'responseFormat' | 'providerOptions'
>;

/**
 * The caller's options as AI SDK call settings; OpenAI-only ones go in the `openai` provider options (the
 * Anthropic model is never sent those: call-options.ts refuses them first). `strict` maps to the OpenAI
 * provider's strictJsonSchema, whose own default (true) would otherwise apply where OpenAI's is false.
 */
export function convertToCallSettings(options: ModelCallOptions | undefined): CallSettings {
  if (!options) return {};
  const format = options.responseFormat;
  const openai: Record<string, unknown> = {
    logitBias: options.logitBias,
    // The AI SDK's number form asks for that many top logprobs; true asks for the chosen token's only.
    logprobs: options.logprobs ? (options.topLogprobs ?? true) : undefined,
    reasoningEffort: options.reasoningEffort,
    textVerbosity: options.verbosity,
    strictJsonSchema: format?.type === 'json_schema' ? (format.strict ?? false) : undefined,
  };
  const providerOptions = Object.values(openai).some((value) => value !== undefined)
    ? ({ openai: stripUndefined(openai) } as SharedV3ProviderOptions)
    : undefined;
  return {
    topP: options.topP,
    stopSequences: options.stop,
    seed: options.seed,
    presencePenalty: options.presencePenalty,
    frequencyPenalty: options.frequencyPenalty,
    responseFormat:
      format &&
      (format.type === 'json_object'
        ? { type: 'json' }
        : {
            type: 'json',
            name: format.name,
            description: format.description,
            schema: format.schema,
          }),
    providerOptions,
  };
}

function stripUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}
