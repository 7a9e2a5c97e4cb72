import { randomUUID } from 'node:crypto';
import { InvalidResponseDataError } from '@ai-sdk/provider';
import type { ReportedUsage, TransportPart } from '../model-transport.js';
import type { FinishReason } from '../types.js';

type JsonObject = Record<string, unknown>;

interface PendingToolCall {
  id?: string;
  name?: string;
  arguments: string;
}

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const nonEmpty = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : undefined;
const count = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** An `AI_` error, which map-upstream-error reports as a non-retryable "invalid response from upstream". */
export function invalidResponse(message: string, data?: unknown): InvalidResponseDataError {
  return new InvalidResponseDataError({ data, message });
}

function mapChatFinishReason(reason: unknown): FinishReason {
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'other';
  }
}

function mapChatUsage(usage: JsonObject): ReportedUsage {
  const details = isObject(usage.prompt_tokens_details) ? usage.prompt_tokens_details : undefined;
  return {
    inputTokens: count(usage.prompt_tokens),
    outputTokens: count(usage.completion_tokens),
    cachedInputTokens: count(details?.cached_tokens),
  };
}

/** Text of a delta: a string, or (some servers) an array of `{type: "text", text}` parts. */
function deltaText(content: unknown): string | undefined {
  if (typeof content === 'string') return content || undefined;
  if (!Array.isArray(content)) return undefined;
  const text = content
    .map((part) => (isObject(part) && part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .join('');
  return text || undefined;
}

/**
 * Turns parsed Chat Completions chunks into transport parts. Text goes out as it arrives; tool calls are
 * assembled by index (id and name from their first fragment, arguments concatenated) and go out complete at the end.
 * Fields are read defensively rather than schema-checked per chunk: that costs more than the rest of the parse.
 */
export class ChatChunkDecoder {
  private readonly toolCalls = new Map<number, PendingToolCall>();
  private lastToolIndex = -1;
  private finishReason: FinishReason | undefined;
  private usage: ReportedUsage | undefined;
  private responseModel: string | undefined;

  accept(chunk: unknown, out: TransportPart[]): void {
    if (!isObject(chunk)) throw invalidResponse('a stream chunk is not a JSON object', chunk);
    // `data: {"error": {...}}`: thrown as is, like the AI SDK's error part, so the message names the upstream's reason.
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- the upstream's error object, as the comment above says
    if (chunk.error != null) throw chunk.error;
    if (isObject(chunk.usage)) {
      this.usage = mapChatUsage(chunk.usage);
      out.push({ type: 'usage', usage: this.usage });
    }
    // Every chunk repeats the model id the upstream answered with (gen_ai.response.model): the first one is read.
    if (this.responseModel === undefined && typeof chunk.model === 'string' && chunk.model !== '')
      this.responseModel = chunk.model;
    if (chunk.choices == null) return;
    if (!Array.isArray(chunk.choices))
      throw invalidResponse('a stream chunk has "choices" that is not an array', chunk);
    const choice: unknown = chunk.choices[0];
    if (!isObject(choice)) return;
    if (choice.finish_reason != null) this.finishReason = mapChatFinishReason(choice.finish_reason);
    const delta = choice.delta;
    if (!isObject(delta)) return;
    const text = deltaText(delta.content);
    if (text) out.push({ type: 'text-delta', delta: text });
    if (delta.tool_calls == null) return;
    if (!Array.isArray(delta.tool_calls))
      throw invalidResponse('a stream chunk has "tool_calls" that is not an array', chunk);
    for (const fragment of delta.tool_calls) this.acceptToolCallFragment(fragment);
  }

  /** Called once, at `[DONE]` or the end of the body: the assembled tool calls, then the finish part. */
  finish(out: TransportPart[]): void {
    if (this.finishReason === undefined) throw invalidResponse('the stream ended without a finish reason');
    const indexes = [...this.toolCalls.keys()].sort((a, b) => a - b);
    for (const index of indexes) {
      const call = this.toolCalls.get(index)!;
      if (!call.name) throw invalidResponse(`tool call ${index} has no function name`, call);
      // A call needs an id for its result to refer to; a few servers leave it out.
      out.push({
        type: 'tool-call',
        toolCall: {
          id: call.id ?? `call_${randomUUID().replaceAll('-', '')}`,
          name: call.name,
          arguments: call.arguments,
        },
      });
    }
    out.push({ type: 'finish', finishReason: this.finishReason, usage: this.usage, responseModel: this.responseModel });
  }

  private acceptToolCallFragment(fragment: unknown): void {
    if (!isObject(fragment)) throw invalidResponse('a tool call fragment is not a JSON object', fragment);
    const fn = isObject(fragment.function) ? fragment.function : undefined;
    const name = nonEmpty(fn?.name);
    // Without an index (some servers omit it), a named fragment starts the next call and the rest continue the last one.
    let index = count(fragment.index);
    if (index === undefined) index = name || this.lastToolIndex < 0 ? this.lastToolIndex + 1 : this.lastToolIndex;
    this.lastToolIndex = Math.max(this.lastToolIndex, index);
    let call = this.toolCalls.get(index);
    if (!call) {
      call = { arguments: '' };
      this.toolCalls.set(index, call);
    }
    call.id ??= nonEmpty(fragment.id);
    call.name ??= name;
    if (typeof fn?.arguments === 'string') call.arguments += fn.arguments;
  }
}
