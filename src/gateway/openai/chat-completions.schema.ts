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
  user: z.string().optional(),
  ...chatOptionFields,
  ...refusedChatFields,
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
      message: z.object({ role: z.literal('assistant'), content: z.string(), refusal: z.null() }),
      logprobs: z.null(),
      finish_reason: z.string(),
    }),
  ),
  usage,
});

export type ChatCompletion = z.infer<typeof chatCompletionResponse>;
export type ChatCompletionUsage = z.infer<typeof usage>;
