import { ValidationError } from '../errors.js';
import type { ModelCallOptions, ModelInfo } from './types.js';

type OptionName = keyof ModelCallOptions;

/** The Chat Completions field each option comes from: what a refusal names. */
export const OPTION_FIELDS: Record<OptionName, string> = {
  topP: 'top_p',
  stop: 'stop',
  seed: 'seed',
  presencePenalty: 'presence_penalty',
  frequencyPenalty: 'frequency_penalty',
  logitBias: 'logit_bias',
  logprobs: 'logprobs',
  topLogprobs: 'top_logprobs',
  reasoningEffort: 'reasoning_effort',
  verbosity: 'verbosity',
  responseFormat: 'response_format',
};

const EVERY_OPTION = new Set(Object.keys(OPTION_FIELDS) as OptionName[]);

/**
 * What each provider type takes. OpenAI's wire takes them all; the AI SDK's Anthropic model has no seed,
 * penalties, logit bias, logprobs or schema-less JSON mode (it would drop them with a warning, so they are
 * refused instead). The dev model takes everything and ignores it (docs/dev-model.md).
 */
const SUPPORTED: Record<ModelInfo['providerType'], ReadonlySet<OptionName>> = {
  openai: EVERY_OPTION,
  'openai-compatible': EVERY_OPTION,
  anthropic: new Set<OptionName>(['topP', 'stop', 'responseFormat']),
  dev: EVERY_OPTION,
};

/**
 * Throws a 400 naming the first option the agent's provider cannot honour. A caller's option is honoured or
 * refused by name, never dropped.
 */
export function assertOptionsSupported(info: ModelInfo, options: ModelCallOptions): void {
  const supported = SUPPORTED[info.providerType];
  for (const [name, value] of Object.entries(options) as [OptionName, unknown][]) {
    if (value === undefined) continue;
    if (!supported.has(name)) throw unsupported(info, OPTION_FIELDS[name]);
  }
  if (info.providerType === 'anthropic' && options.responseFormat?.type === 'json_object')
    throw unsupported(info, 'response_format', 'JSON mode without a schema (use json_schema)');
}

function unsupported(info: ModelInfo, field: string, what = `\`${field}\``): ValidationError {
  return new ValidationError(
    `${what} is not supported by the agent's provider "${info.provider}" (type ${info.providerType})`,
    'invalid_request',
    { param: field },
  );
}
