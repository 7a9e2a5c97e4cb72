import type { LanguageModelV3FinishReason, LanguageModelV3StreamPart, LanguageModelV3Usage, SharedV3Warning } from '@ai-sdk/provider';
import { mapFinishReason } from './map-finish-reason.js';
import { mapUsage } from './map-usage.js';
import type { ModelCallRequest, ModelStreamPart, ToolCall } from './types.js';

/** Turns AI SDK stream parts into ours, and remembers what `end` must report. */
export class StreamCollector {
  private text = '';
  private readonly toolCalls: ToolCall[] = [];
  private usage: LanguageModelV3Usage | undefined;
  private finishReason: LanguageModelV3FinishReason | undefined;

  constructor(private readonly onWarnings: (warnings: SharedV3Warning[]) => void) {}

  /** Returns the part to hand to the caller, if any; throws the upstream error of an `error` part. */
  accept(part: LanguageModelV3StreamPart): ModelStreamPart | undefined {
    switch (part.type) {
      case 'stream-start':
        this.onWarnings(part.warnings);
        return undefined;
      case 'text-delta':
        if (!part.delta) return undefined;
        this.text += part.delta;
        return { type: 'text-delta', delta: part.delta };
      case 'tool-call': {
        const toolCall: ToolCall = { id: part.toolCallId, name: part.toolName, arguments: part.input };
        this.toolCalls.push(toolCall);
        return { type: 'tool-call', toolCall };
      }
      case 'finish':
        this.usage = part.usage;
        this.finishReason = part.finishReason;
        return undefined;
      case 'error':
        throw part.error;
      default:
        return undefined;
    }
  }

  end(request: ModelCallRequest): Extract<ModelStreamPart, { type: 'end' }> {
    const usage = mapUsage(this.usage, { messages: request.messages, tools: request.tools, text: this.text, toolCalls: this.toolCalls });
    return { type: 'end', finishReason: mapFinishReason(this.finishReason), usage, text: this.text, toolCalls: [...this.toolCalls] };
  }
}
