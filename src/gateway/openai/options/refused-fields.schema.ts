import { z } from 'zod';

/**
 * A field the gateway does not honour: absent or null passes, anything else is a 400 that names it. Typed as
 * null in /openapi.json, so the document never offers a value the route refuses (the hostile fuzz checks).
 */
function refused(reason: string) {
  return z
    .null({ error: `not supported: ${reason}` })
    .optional()
    .describe(`Refused unless null (400): ${reason}`);
}

/** A field honoured only at its no-op values (`schema`, built with the refusal as its error); others are a 400. */
function onlyValues<T extends z.ZodType>(schema: T, reason: string) {
  return schema.nullable().optional().describe(`Accepted only as a no-op (${reason})`);
}

const notSupported = (reason: string) => ({ error: `not supported: ${reason}` });
const MODALITIES = 'only ["text"]; the gateway answers with text';
const STORE = 'only false; the gateway keeps its own run records, not OpenAI stored completions';
const SERVICE_TIER = 'only auto or default; the provider configuration decides';
const LOGPROBS = 'log probabilities are not returned yet';

/**
 * Chat Completions fields OpenAI defines that the gateway cannot honour: refused by name, never dropped
 * (docs/openai-compatibility.md). Fields OpenAI does not define are ignored.
 */
export const refusedChatFields = {
  audio: refused('audio output; the gateway answers with text'),
  modalities: onlyValues(z.array(z.literal('text', notSupported(MODALITIES)), notSupported(MODALITIES)), MODALITIES),
  prediction: refused('predicted outputs'),
  web_search_options: refused('built-in web search; give the agent a tool instead'),
  functions: refused('legacy `functions`; use `tools`'),
  function_call: refused('legacy `function_call`; use `tool_choice`'),
  store: onlyValues(z.literal(false, notSupported(STORE)), STORE),
  metadata: refused('metadata goes with stored completions (`store`), which the gateway does not offer'),
  service_tier: onlyValues(z.enum(['auto', 'default'], notSupported(SERVICE_TIER)), SERVICE_TIER),
  prompt_cache_key: refused('prompt cache keys'),
  prompt_cache_retention: refused('prompt cache retention'),
  prompt_cache_options: refused('prompt cache options'),
  moderation: refused("OpenAI moderation settings; configure the agent's guardrails instead"),
  logprobs: onlyValues(z.literal(false, notSupported(LOGPROBS)), LOGPROBS),
  top_logprobs: refused(LOGPROBS),
};
