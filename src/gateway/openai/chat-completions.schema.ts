import { z } from 'zod';
import { SESSION_ID_PATTERN } from '../../agents/index.js';
import { chatOptionFields } from './options/chat-options.schema.js';
import { refusedChatFields } from './options/refused-fields.schema.js';

const textPart = z.object({ type: z.literal('text'), text: z.string() });
/** A message's content: a string or an array of text parts (other part types are not supported). */
const content = z.union([z.string(), z.array(textPart)], {
  error: 'content must be a string or an array of {type: "text", text} parts',
});

const toolCall = z.object({
  id: z.string(),
  type: z.literal('function').optional(),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

export const chatMessage = z.discriminatedUnion(
  'role',
  [
    z.object({ role: z.literal('system'), content, name: z.string().optional() }),
    // Newer OpenAI clients send `developer` where older ones send `system`.
    z.object({ role: z.literal('developer'), content, name: z.string().optional() }),
    z.object({ role: z.literal('user'), content, name: z.string().optional() }),
    z.object({
      role: z.literal('assistant'),
      content: content.nullish(),
      tool_calls: z.array(toolCall).optional(),
      name: z.string().optional(),
    }),
    z.object({ role: z.literal('tool'), content, tool_call_id: z.string() }),
  ],
  { error: 'role must be one of system, developer, user, assistant, tool' },
);

/** OpenAI's function name rule: the providers refuse any other. */
const FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** The caller's own tool: the model may call it, and the caller answers the call in its next request. */
const functionTool = z.object({
  type: z.literal('function', { error: 'only function tools are supported (type: "function")' }),
  function: z.object({
    name: z.string().regex(FUNCTION_NAME, 'the name is 1-64 letters, digits, _ or -'),
    description: z.string().nullish(),
    parameters: z
      .looseObject({
        type: z.literal('object', { error: 'parameters must be a JSON schema of type "object"' }).optional(),
      })
      .nullish()
      .describe('A JSON schema of type "object"; none: no arguments'),
    strict: z.boolean().nullish(),
  }),
});

const toolChoice = z.union(
  [
    z.enum(['none', 'auto', 'required']),
    z.object({ type: z.literal('function'), function: z.object({ name: z.string().min(1) }) }),
  ],
  { error: 'tool_choice must be "none", "auto", "required" or {"type": "function", "function": {"name"}}' },
);

/**
 * POST /v1/chat/completions (spec 4.1). Every field OpenAI defines is honoured or refused by name
 * (docs/openai-compatibility.md); fields OpenAI does not define are ignored, as OpenAI-compatible servers do.
 */
export const chatCompletionBody = z.object({
  model: z.string().min(1).describe('The agent name'),
  messages: z.array(chatMessage).min(1, 'messages must contain at least one message'),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).nullish(),
  temperature: z.number().min(0).max(2).nullish().describe("Overrides the agent's temperature"),
  max_tokens: z.number().int().positive().nullish().describe("Overrides the agent's max_tokens"),
  max_completion_tokens: z.number().int().positive().nullish().describe('Same as max_tokens (newer clients)'),
  user: z
    .string()
    .max(256)
    .optional()
    .describe('The end user: kept on the run record and its analytics records, filterable by `end_user`'),
  safety_identifier: z.string().max(256).nullish().describe('Read as `user` when `user` is not sent'),
  ...chatOptionFields,
  ...refusedChatFields,
  tools: z
    .array(functionTool)
    .nullish()
    .describe(
      "The caller's own function tools, offered with the agent's: a call to one ends the answer with finish_reason tool_calls, and the caller's next request carries its result",
    ),
  tool_choice: toolChoice
    .nullish()
    .describe("For the run's first model call (later ones choose freely, so a forced call cannot repeat forever)"),
  parallel_tool_calls: z.boolean().nullish().describe('False: at most one tool call per model answer'),
});

export type ChatCompletionBody = z.infer<typeof chatCompletionBody>;
export type ChatCompletionMessage = z.infer<typeof chatMessage>;

export const chatCompletionHeaders = z.object({
  'x-session-id': z
    .string()
    .regex(SESSION_ID_PATTERN, 'X-Session-Id is 1-128 characters of letters, digits, _ . : or -')
    .optional()
    .describe(
      'Keeps the conversation on the server: send only the new message next time. Without it a new session starts (its id comes back in X-Session-Id), an active session once sent back',
    ),
});

const usage = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
});

export const chatCompletionResponse = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({
        role: z.literal('assistant'),
        content: z.string().nullable(),
        refusal: z.null(),
        tool_calls: z
          .array(
            z.object({
              id: z.string(),
              type: z.literal('function'),
              function: z.object({ name: z.string(), arguments: z.string() }),
            }),
          )
          .optional()
          .describe("Calls of the caller's own tools (finish_reason tool_calls): the caller answers them"),
      }),
      logprobs: z.null(),
      finish_reason: z.string(),
    }),
  ),
  usage,
});

export type ChatCompletion = z.infer<typeof chatCompletionResponse>;
export type ChatCompletionUsage = z.infer<typeof usage>;
