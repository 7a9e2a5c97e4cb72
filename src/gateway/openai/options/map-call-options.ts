import type { ModelCallOptions, ResponseFormat } from '../../../agents/index.js';
import type { ChatResponseFormat } from './chat-options.schema.js';

/** The option fields as Chat Completions names them (Responses shares most names). */
export interface OpenAiOptionFields {
  top_p?: number | null;
  stop?: string | string[] | null;
  seed?: number | null;
  presence_penalty?: number | null;
  frequency_penalty?: number | null;
  logit_bias?: Record<string, number> | null;
  logprobs?: boolean | null;
  top_logprobs?: number | null;
  reasoning_effort?: ModelCallOptions['reasoningEffort'] | null;
  verbosity?: ModelCallOptions['verbosity'] | null;
}

/** Chat's `response_format` → the runtime's; `text` (the default) is none. */
export function mapResponseFormat(format: ChatResponseFormat | undefined): ResponseFormat | undefined {
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  const { name, description, schema, strict } = format.json_schema;
  return { type: 'json_schema', name, description, schema: schema ?? {}, strict: strict ?? undefined };
}

/**
 * The caller's sampling and output fields → the run's call options; undefined when none is set, so a plain
 * request's runs carry nothing extra. Shared by every OpenAI-shaped route that starts runs.
 */
export function mapCallOptions(
  fields: OpenAiOptionFields,
  responseFormat?: ResponseFormat,
): ModelCallOptions | undefined {
  const options: ModelCallOptions = {};
  if (fields.top_p != null) options.topP = fields.top_p;
  if (fields.stop != null) options.stop = typeof fields.stop === 'string' ? [fields.stop] : fields.stop;
  if (fields.seed != null) options.seed = fields.seed;
  if (fields.presence_penalty != null) options.presencePenalty = fields.presence_penalty;
  if (fields.frequency_penalty != null) options.frequencyPenalty = fields.frequency_penalty;
  if (fields.logit_bias != null) options.logitBias = fields.logit_bias;
  if (fields.logprobs) options.logprobs = true;
  if (fields.top_logprobs != null) options.topLogprobs = fields.top_logprobs;
  if (fields.reasoning_effort != null) options.reasoningEffort = fields.reasoning_effort;
  if (fields.verbosity != null) options.verbosity = fields.verbosity;
  if (responseFormat) options.responseFormat = responseFormat;
  return Object.keys(options).length > 0 ? options : undefined;
}
