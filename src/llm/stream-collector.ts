import { mapUsage } from './map-usage.js';
import type { ReportedUsage, TransportPart } from './model-transport.js';
import type { FinishReason, ModelCallRequest, ModelStreamPart, ToolCall } from './types.js';

/** Turns transport parts into ours, and remembers what `end` must report. */
export class StreamCollector {
  private text = '';
  private readonly toolCalls: ToolCall[] = [];
  private usage: ReportedUsage | undefined;
  private finishReason: FinishReason = 'other';
  private responseModel: string | undefined;

  /** Returns the part to hand to the caller, if any. */
  accept(part: TransportPart): ModelStreamPart | undefined {
    switch (part.type) {
      case 'text-delta':
        if (!part.delta) return undefined;
        this.text += part.delta;
        return part;
      case 'tool-call':
        this.toolCalls.push(part.toolCall);
        return part;
      case 'usage':
        this.usage = part.usage;
        return part;
      case 'finish':
        this.usage = part.usage;
        this.finishReason = part.finishReason;
        this.responseModel = part.responseModel;
        return undefined;
      default: {
        const exhaustive: never = part;
        throw new Error(`unknown transport part ${JSON.stringify(exhaustive)}`);
      }
    }
  }

  end(request: ModelCallRequest): Extract<ModelStreamPart, { type: 'end' }> {
    const usage = mapUsage(this.usage, {
      messages: request.messages,
      tools: request.tools,
      text: this.text,
      toolCalls: this.toolCalls,
    });
    return {
      type: 'end',
      finishReason: this.finishReason,
      usage,
      text: this.text,
      toolCalls: [...this.toolCalls],
      ...(this.responseModel !== undefined && { responseModel: this.responseModel }),
    };
  }
}
