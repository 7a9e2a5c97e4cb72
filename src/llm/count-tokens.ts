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

/**
 * The longest piece handed to the tokenizer at once. BPE takes time quadratic in the length of a word, and a
 * text without spaces (base64, minified code, one letter repeated) is one word: 40,000 such characters took
 * seconds, 2 MiB would take hours.
 */
const MAX_TOKENIZER_PIECE = 256;
/**
 * Characters counted one by one. Even in pieces the tokenizer takes about a second per MiB of random base64,
 * so a longer text is counted in SAMPLES evenly spaced windows of this many characters in all, and scaled.
 */
const EXACT_COUNT_CHARS = 256 * 1024;
const SAMPLES = 16;

/**
 * Counts tokens with the o200k_base encoding, a close estimate for most current models. Texts over 256 KiB
 * are estimated from samples (within a few per cent for text of one kind), so any length costs about the same.
 */
export function countTextTokens(text: string): number {
  if (!text) return 0;
  if (text.length <= EXACT_COUNT_CHARS) return countPieces(text, 0, text.length);
  const window = EXACT_COUNT_CHARS / SAMPLES;
  let tokens = 0;
  let chars = 0;
  for (let index = 0; index < SAMPLES; index += 1) {
    const start = pieceStart(text, Math.floor((index * (text.length - window)) / (SAMPLES - 1)));
    const end = Math.max(start, pieceStart(text, start + window));
    tokens += countPieces(text, start, end);
    chars += end - start;
  }
  return chars === 0 ? 0 : Math.round((tokens * text.length) / chars);
}

function countPieces(text: string, from: number, to: number): number {
  let total = 0;
  for (let start = from; start < to;) {
    const end = pieceEnd(text, start, to);
    total += tokenizer()(start === 0 && end === text.length ? text : text.slice(start, end), NO_SPECIAL_CHECK);
    start = end;
  }
  return total;
}

/**
 * Where the piece from `start` ends: before a lone space between two words in its second half, where the tokenizer
 * splits anyway (so ordinary text counts exactly as a whole), else at the limit, never inside a surrogate pair.
 * Not before other whitespace: `.\n\n` or a run of spaces is one pre-token to the tokenizer.
 */
function pieceEnd(text: string, start: number, to: number): number {
  const limit = start + MAX_TOKENIZER_PIECE;
  if (limit >= to) return to;
  for (let at = limit; at > start + MAX_TOKENIZER_PIECE / 2; at -= 1)
    if (
      text.charCodeAt(at) === SPACE &&
      !isWhitespace(text.charCodeAt(at - 1)) &&
      !isWhitespace(text.charCodeAt(at + 1))
    )
      return at;
  return isHighSurrogate(text.charCodeAt(limit - 1)) ? limit - 1 : limit;
}

/** A sample's edge: `at`, moved off the second half of a surrogate pair. */
function pieceStart(text: string, at: number): number {
  if (at >= text.length) return text.length;
  return at > 0 && isHighSurrogate(text.charCodeAt(at - 1)) ? at + 1 : at;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

const SPACE = 0x20;

function isWhitespace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0 || code === 0x3000;
}

function countToolCalls(toolCalls: ToolCall[] = []): number {
  return toolCalls.reduce((sum, call) => sum + countTextTokens(call.name) + countTextTokens(call.arguments), 0);
}

/** Counts the prompt tokens of a model call: every message plus the tool definitions. */
export function countPromptTokens(
  messages: ChatMessage[],
  tools: ToolDefinition[] = [],
  countMessage: (message: ChatMessage) => number = countMessageTokens,
): number {
  let total = REPLY_PRIMING_TOKENS;
  for (const message of messages) total += countMessage(message);
  return total + countToolDefinitionTokens(tools);
}

/** The tool definitions' share of a prompt. */
export function countToolDefinitionTokens(tools: ToolDefinition[]): number {
  return tools.length > 0 ? countTextTokens(JSON.stringify(tools)) : 0;
}

/** One message's share of a prompt: its framing, role and content, and its tool calls or tool name. */
export function countMessageTokens(message: ChatMessage): number {
  let total = TOKENS_PER_MESSAGE + countTextTokens(message.role) + countTextTokens(message.content);
  if (message.role === 'assistant') total += countToolCalls(message.tool_calls);
  if (message.role === 'tool') total += countTextTokens(message.name);
  return total;
}

/** Estimates the output tokens of a model answer. */
export function countCompletionTokens(text: string, toolCalls: ToolCall[]): number {
  return countTextTokens(text) + countToolCalls(toolCalls);
}
