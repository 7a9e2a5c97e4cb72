import type { FinishReason, RunResult, RunUsage } from '../../agents/index.js';
import type { AppError } from '../../errors.js';
import type { ChatCompletion, ChatCompletionUsage } from './chat-completions.schema.js';

export type OpenAiFinishReason = 'stop' | 'length' | 'content_filter';

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

/** The run's final answer came from a call without tool calls, so `tool_calls` (and unknown reasons) read as `stop`. */
export function mapFinishReason(reason: FinishReason): OpenAiFinishReason {
  return reason === 'length' || reason === 'content_filter' ? reason : 'stop';
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
  return {
    id,
    created,
    model,
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: result.output, refusal: null },
        logprobs: null,
        finish_reason: mapFinishReason(result.finishReason),
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
