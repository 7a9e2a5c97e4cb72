import { countTokens } from 'gpt-tokenizer';
import type { ChatMessage, ToolCall, ToolDefinition } from './types.js';

// Special-token text such as `<|endoftext|>` is ordinary user text here, so nothing is disallowed.
const NO_SPECIAL_CHECK = { disallowedSpecial: new Set<string>() };
// OpenAI's documented chat framing: a few tokens per message and three to prime the reply.
const TOKENS_PER_MESSAGE = 3;
const REPLY_PRIMING_TOKENS = 3;

/** Counts tokens with the o200k_base encoding, a close estimate for most current models. */
export function countTextTokens(text: string): number {
  return text ? countTokens(text, NO_SPECIAL_CHECK) : 0;
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
