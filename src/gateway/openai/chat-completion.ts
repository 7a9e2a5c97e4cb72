import type { FinishReason, RunResult, RunUsage, ToolCall } from '../../agents/index.js';
import type { AppError } from '../../errors.js';
import type { ChatCompletion, ChatCompletionUsage } from './chat-completions.schema.js';

export type OpenAiFinishReason = 'stop' | 'length' | 'content_filter' | 'tool_calls';

/** What every response (or chunk) of one completion shares. */
export interface CompletionIdentity {
  id: string;
  created: number;
  /** The agent name, as the client asked for it. */
  model: string;
}

/** The completion id carries the run id, so a client's log line leads to the run record. */
export function createCompletionIdentity(runId: string, model: string): CompletionIdentity {
  return { id: `chatcmpl-${runId.replace(/^run_/, '')}`, created: Math.floor(Date.now() / 1000), model };
}

/**
 * Why the answer ended: `tool_calls` when the run handed calls of the caller's tools over (the agent's own tool
 * calls never reach the client), else the final call's reason, unknown ones read as `stop`.
 */
export function mapFinishReason(result: Extract<RunResult, { status: 'completed' }>): OpenAiFinishReason {
  if (result.clientToolCalls?.length) return 'tool_calls';
  const reason: FinishReason = result.finishReason;
  return reason === 'length' || reason === 'content_filter' ? reason : 'stop';
}

/** A tool call in OpenAI's message shape. */
export function toOpenAiToolCall(call: ToolCall): {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
} {
  return { id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } };
}

/** Usage summed over every model call of the run: that is what the client's request cost. */
export function mapUsage(usage: RunUsage): ChatCompletionUsage {
  return { prompt_tokens: usage.inputTokens, completion_tokens: usage.outputTokens, total_tokens: usage.totalTokens };
}

export function createChatCompletion(
  identity: CompletionIdentity,
  result: Extract<RunResult, { status: 'completed' }>,
): ChatCompletion {
  const { id, created, model } = identity;
  const toolCalls = result.clientToolCalls?.map(toOpenAiToolCall);
  return {
    id,
    created,
    model,
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        message: toolCalls?.length
          ? { role: 'assistant', content: result.output || null, refusal: null, tool_calls: toolCalls }
          : { role: 'assistant', content: result.output, refusal: null },
        logprobs: null,
        finish_reason: mapFinishReason(result),
      },
    ],
    usage: mapUsage(result.usage),
  };
}

/** One `chat.completion.chunk`; with include_usage every chunk carries `usage: null` except the last, as OpenAI does. */
export function createChunk(
  identity: CompletionIdentity,
  delta: object,
  finishReason: OpenAiFinishReason | null,
  includeUsage: boolean,
): object {
  // Field by field here and above, not `{ ...identity, … }`: once optimised, that spread gives every chunk a map of
  // its own (~6 µs each).
  const { id, created, model } = identity;
  const choices = [{ index: 0, delta, logprobs: null, finish_reason: finishReason }];
  return includeUsage
    ? { id, created, model, object: 'chat.completion.chunk', choices, usage: null }
    : { id, created, model, object: 'chat.completion.chunk', choices };
}

export function createUsageChunk(identity: CompletionIdentity, usage: RunUsage): object {
  const { id, created, model } = identity;
  return { id, created, model, object: 'chat.completion.chunk', choices: [], usage: mapUsage(usage) };
}

/** The error shape OpenAI clients parse, also used for the error chunk of a failed stream. */
export function createErrorBody(error: AppError): { error: { type: string; code: string; message: string } } {
  return { error: { type: error.type, code: error.code, message: error.message } };
}
