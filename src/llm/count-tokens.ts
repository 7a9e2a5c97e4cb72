import { createRequire } from 'node:module';
import type { ChatMessage, ToolCall, ToolDefinition } from './types.js';

type CountTokens = typeof import('gpt-tokenizer').countTokens;
let countTokens: CountTokens | undefined;
/**
 * gpt-tokenizer (its o200k table) takes longer to load than the rest of the server, and only calls whose
 * provider reports no usage need it: it loads on the first count, not at start-up.
 */
function tokenizer(): CountTokens {
  countTokens ??= (createRequire(import.meta.url)('gpt-tokenizer') as typeof import('gpt-tokenizer')).countTokens;
  return countTokens;
}

// Special-token text such as `<|endoftext|>` is ordinary user text here, so nothing is disallowed.
const NO_SPECIAL_CHECK = { disallowedSpecial: new Set<string>() };
// OpenAI's documented chat framing: a few tokens per message and three to prime the reply.
const TOKENS_PER_MESSAGE = 3;
const REPLY_PRIMING_TOKENS = 3;

/** Counts tokens with the o200k_base encoding, a close estimate for most current models. */
export function countTextTokens(text: string): number {
  return text ? tokenizer()(text, NO_SPECIAL_CHECK) : 0;
}

function countToolCalls(toolCalls: ToolCall[] = []): number {
  return toolCalls.reduce((sum, call) => sum + countTextTokens(call.name) + countTextTokens(call.arguments), 0);
}

/** Estimates the input tokens of a model call: every message plus the tool definitions. */
export function countPromptTokens(messages: ChatMessage[], tools: ToolDefinition[] = []): number {
  let total = REPLY_PRIMING_TOKENS;
  for (const message of messages) {
    total += TOKENS_PER_MESSAGE + countTextTokens(message.role) + countTextTokens(message.content);
    if (message.role === 'assistant') total += countToolCalls(message.tool_calls);
    if (message.role === 'tool') total += countTextTokens(message.name);
  }
  if (tools.length > 0) total += countTextTokens(JSON.stringify(tools));
  return total;
}

/** Estimates the output tokens of a model answer. */
export function countCompletionTokens(text: string, toolCalls: ToolCall[]): number {
  return countTextTokens(text) + countToolCalls(toolCalls);
}
