import { z } from 'zod';

/** A field the gateway does not honour: absent or null passes, anything else is a 400 that names it. */
function refused(reason: string) {
  return z
    .unknown()
    .refine((value) => value === undefined || value === null, { error: `not supported: ${reason}` })
    .optional()
    .describe(`Refused (400): ${reason}`);
}

/** A field honoured only at its no-op values; others are a 400 that names it. */
function onlyValues<T extends z.ZodType>(schema: T, reason: string) {
  return z
    .unknown()
    .refine((value) => value === undefined || value === null || schema.safeParse(value).success, {
      error: `not supported: ${reason}`,
    })
    .optional()
    .describe(`Accepted only as a no-op (${reason})`);
}

/**
 * Chat Completions fields OpenAI defines that the gateway cannot honour: refused by name, never dropped
 * (docs/openai-compatibility.md). Fields OpenAI does not define are ignored.
 */
export const refusedChatFields = {
  audio: refused('audio output; the gateway answers with text'),
  modalities: onlyValues(z.array(z.literal('text')), 'only ["text"]; the gateway answers with text'),
  prediction: refused('predicted outputs'),
  web_search_options: refused('built-in web search; give the agent a tool instead'),
  functions: refused('legacy `functions`; use `tools`'),
  function_call: refused('legacy `function_call`; use `tool_choice`'),
  store: onlyValues(
    z.literal(false),
    'only false; the gateway keeps its own run records, not OpenAI stored completions',
  ),
  metadata: refused('metadata goes with stored completions (`store`), which the gateway does not offer'),
  service_tier: onlyValues(z.enum(['auto', 'default']), 'only auto or default; the provider configuration decides'),
  prompt_cache_key: refused('prompt cache keys'),
  prompt_cache_retention: refused('prompt cache retention'),
  prompt_cache_options: refused('prompt cache options'),
  moderation: refused("OpenAI moderation settings; configure the agent's guardrails instead"),
  logprobs: z
    .boolean()
    .nullish()
    .refine((value) => !value, { error: 'not supported: log probabilities are not returned yet' })
    .describe('Refused when true (400): log probabilities are not returned yet'),
  top_logprobs: z
    .number()
    .nullish()
    .refine((value) => value == null, { error: 'not supported: log probabilities are not returned yet' })
    .describe('Refused (400): log probabilities are not returned yet'),
};
