import { z } from 'zod';

/**
 * A field the Responses API defines that an agent cannot honour: any value but null is a 400 that names it
 * (the error's `param`), never a silent drop.
 */
const refused = (why: string) =>
  z
    .null({ error: `not supported: ${why}` })
    .optional()
    .describe(`Refused unless null: ${why}`);

interface UnionIssue {
  errors?: { code: string; path: PropertyKey[]; message: string }[][];
}

/**
 * A union's message: that of the branch whose type matched (an array whose item is wrong), with where in it,
 * rather than zod's "Invalid input"; `fallback` when no branch matched.
 */
const unionError = (fallback: string) => (issue: UnionIssue) => {
  const matched = issue.errors?.find((branch) => !branch.every((i) => i.code === 'invalid_type' && !i.path.length));
  const inner = matched?.[0];
  if (!inner) return fallback;
  const where = inner.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('');
  // A nested union's message starts with its own path: the two join into one.
  return /^[[.]/.test(inner.message) ? `${where}${inner.message}` : `${where}: ${inner.message}`;
};

const inputText = z.object({ type: z.literal('input_text'), text: z.string() });
// An earlier answer sent back as input (clients that keep the conversation themselves).
const outputText = z.object({ type: z.literal('output_text'), text: z.string() });
const refusalPart = z.object({ type: z.literal('refusal'), refusal: z.string() });
const contentPart = z.discriminatedUnion('type', [inputText, outputText, refusalPart], {
  error: (issue) =>
    `content part type ${JSON.stringify((issue.input as { type?: unknown } | undefined)?.type)} is not supported (input_text, output_text)`,
});

/** A message item: `type: "message"` may be left out (OpenAI's EasyInputMessage). */
const messageItem = z.object({
  type: z
    .literal('message', { error: (issue) => `input items of type ${JSON.stringify(issue.input)} are not supported` })
    .optional(),
  id: z.string().optional(),
  status: z.string().optional(),
  role: z.enum(['user', 'assistant', 'system', 'developer'], {
    error: 'role must be one of user, assistant, system, developer',
  }),
  content: z.union([z.string(), z.array(contentPart)], {
    error: unionError('content must be a string or an array of input_text parts'),
  }),
});

export const responseInputItem = messageItem;

/** `text.format`: the Responses API's flat spelling of chat's `response_format`. */
export const textFormat = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('text') }),
    z.object({ type: z.literal('json_object') }),
    z.object({
      type: z.literal('json_schema'),
      name: z.string().regex(/^[\w-]{1,64}$/, 'name is 1-64 letters, digits, _ or -'),
      description: z.string().optional(),
      schema: z.record(z.string(), z.unknown()),
      strict: z.boolean().nullish(),
    }),
  ],
  { error: 'text.format.type must be one of text, json_object, json_schema' },
);

export const createResponseBody = z.object({
  model: z.string().min(1).describe('The agent name'),
  input: z
    .union([z.string(), z.array(responseInputItem).min(1, 'input must contain at least one item')], {
      error: unionError('input must be a string or an array of input items (messages)'),
    })
    .describe('A user message, or input items: messages with input_text parts'),
  instructions: z.string().nullish().describe("Added to the agent's system prompt for this response only"),
  previous_response_id: z
    .string()
    .nullish()
    .describe('Continues the conversation of an earlier response of yours (stored: store was not false)'),
  store: z.boolean().nullish().describe('Default true; false: the response is neither retrievable nor continued'),
  metadata: z
    .record(z.string().max(64, 'metadata keys are at most 64 characters'), z.string().max(512))
    .refine((metadata) => Object.keys(metadata).length <= 16, 'metadata holds at most 16 keys')
    .meta({ maxProperties: 16 })
    .nullish()
    .describe('Up to 16 string pairs, stored and returned with the response'),
  stream: z
    .boolean()
    .nullish()
    .describe('Answers with response.* server-sent events, response.created to response.completed'),
  stream_options: z
    .object({ include_obfuscation: z.boolean().optional() })
    .nullish()
    .describe('include_obfuscation: delta events carry an `obfuscation` padding field (default true)'),
  temperature: z.number().min(0).max(2).nullish().describe("Overrides the agent's temperature"),
  max_output_tokens: z.number().int().positive().nullish().describe("Overrides the agent's max_tokens"),
  text: z
    .object({ format: textFormat.optional(), verbosity: z.enum(['low', 'medium', 'high']).nullish() })
    .nullish()
    .describe(
      'format: text, json_object, or json_schema (with strict) for the answer; verbosity (OpenAI-wire providers)',
    ),
  tools: z
    .array(z.unknown())
    .max(0, 'tools: caller tools are not supported on /v1/responses yet')
    .nullish()
    .describe('Must be empty'),
  tool_choice: z
    .enum(['none', 'auto'], { error: 'tool_choice: only none or auto (no caller tools are offered)' })
    .nullish()
    .describe('none or auto: the agent uses its own tools either way'),
  parallel_tool_calls: z.boolean().nullish().describe('Accepted: no caller tools are offered'),
  truncation: z
    .enum(['disabled'], { error: 'truncation: only "disabled" is supported (the conversation is never cut)' })
    .nullish()
    .describe('disabled only: the conversation is never cut'),
  background: z
    .literal(false, { error: 'background: responses are not run in the background' })
    .nullish()
    .describe('false only: a response is answered on its request'),
  service_tier: z
    .enum(['auto', 'default'], { error: 'service_tier: only auto or default (agents have one tier)' })
    .nullish()
    .describe('auto or default: agents have one tier'),
  user: z.string().optional().describe('Accepted as on chat completions'),
  top_p: z.number().min(0).max(1).nullish().describe('Nucleus sampling, for every model call of the run'),
  conversation: refused('conversations: continue with previous_response_id'),
  context_management: refused('context management'),
  include: z
    .array(z.unknown())
    .max(0, 'include: no extra output data can be included')
    .nullish()
    .describe('Must be empty'),
  max_tool_calls: refused('limit tool calls in the agent configuration (max_iterations)'),
  moderation: refused('moderation: configure the agent guardrails'),
  prompt: refused('prompt templates'),
  prompt_cache_key: refused('prompt caching keys'),
  prompt_cache_options: refused('prompt caching options'),
  prompt_cache_retention: refused('prompt caching retention'),
  reasoning: refused('reasoning settings of OpenAI reasoning models'),
  safety_identifier: refused('safety identifiers'),
  top_logprobs: refused('log probabilities'),
});

export type CreateResponseBody = z.infer<typeof createResponseBody>;
export type ResponseInputItem = z.infer<typeof responseInputItem>;
export type TextFormat = z.infer<typeof textFormat>;

export const responseParams = z.object({ response_id: z.string().min(1) });

const outputTextPart = z.object({
  type: z.literal('output_text'),
  text: z.string(),
  annotations: z.array(z.never()),
  logprobs: z.array(z.never()),
});

export const outputMessageItem = z.object({
  type: z.literal('message'),
  id: z.string(),
  status: z.enum(['in_progress', 'completed', 'incomplete']),
  role: z.literal('assistant'),
  content: z.array(outputTextPart),
});

const usage = z.object({
  input_tokens: z.number().int(),
  input_tokens_details: z.object({ cached_tokens: z.number().int() }),
  output_tokens: z.number().int(),
  output_tokens_details: z.object({ reasoning_tokens: z.number().int() }),
  total_tokens: z.number().int(),
});

/** The Response object, as OpenAI defines it (the fields an agent's response has). */
export const responseObject = z.object({
  id: z.string(),
  object: z.literal('response'),
  created_at: z.number().int(),
  status: z.enum(['completed', 'incomplete', 'failed', 'cancelled', 'in_progress']),
  completed_at: z.number().int().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  incomplete_details: z.object({ reason: z.enum(['max_output_tokens', 'content_filter']) }).nullable(),
  instructions: z.string().nullable(),
  max_output_tokens: z.number().int().nullable(),
  metadata: z.record(z.string(), z.string()),
  model: z.string().describe('The agent name'),
  output: z.array(outputMessageItem),
  parallel_tool_calls: z.boolean(),
  previous_response_id: z.string().nullable(),
  store: z.boolean(),
  temperature: z.number().nullable(),
  top_p: z.number().nullable(),
  text: z.object({ format: textFormat, verbosity: z.enum(['low', 'medium', 'high']).optional() }),
  tool_choice: z.string(),
  tools: z.array(z.never()),
  truncation: z.literal('disabled'),
  background: z.literal(false),
  service_tier: z.literal('default'),
  usage: usage.nullable(),
  user: z.string().nullable(),
});

export const deletedResponse = z.object({
  id: z.string(),
  object: z.literal('response.deleted'),
  deleted: z.literal(true),
});

export type ResponseObject = z.infer<typeof responseObject>;
export type OutputMessageItem = z.infer<typeof outputMessageItem>;
export type ResponseUsage = z.infer<typeof usage>;
