import type { LanguageModelV3StreamPart, LanguageModelV3Usage, SharedV3Warning } from '@ai-sdk/provider';
import type { PartReader, ReportedUsage, TransportPart } from '../model-transport.js';
import { mapFinishReason } from './map-finish-reason.js';

function mapAiSdkUsage(usage: LanguageModelV3Usage): ReportedUsage {
  return {
    inputTokens: usage.inputTokens.total,
    outputTokens: usage.outputTokens.total,
    cachedInputTokens: usage.inputTokens.cacheRead,
  };
}

/** The parts we use; the rest (text-start, tool-input-delta, reasoning, metadata) carry nothing we report. */
function mapAiSdkPart(
  part: LanguageModelV3StreamPart,
  onWarnings: (warnings: SharedV3Warning[]) => void,
): TransportPart | undefined {
  switch (part.type) {
    case 'stream-start':
      onWarnings(part.warnings);
      return undefined;
    case 'text-delta':
      return part.delta ? { type: 'text-delta', delta: part.delta } : undefined;
    case 'tool-call':
      return { type: 'tool-call', toolCall: { id: part.toolCallId, name: part.toolName, arguments: part.input } };
    case 'finish':
      return { type: 'finish', finishReason: mapFinishReason(part.finishReason), usage: mapAiSdkUsage(part.usage) };
    case 'error':
      // The AI SDK streams errors as parts; ours are thrown by read(), and map-upstream-error knows both shapes.
      throw part.error;
    default:
      return undefined;
  }
}

/** Reads an AI SDK `doStream` result as our transport parts. */
export function createAiSdkPartReader(
  stream: ReadableStream<LanguageModelV3StreamPart>,
  onWarnings: (warnings: SharedV3Warning[]) => void,
): PartReader {
  const reader = stream.getReader();
  let responseModel: string | undefined;
  return {
    async read() {
      for (;;) {
        const result = await reader.read();
        if (result.done) return { done: true };
        // The provider's own model id comes in a metadata part before the content.
        if (result.value.type === 'response-metadata') responseModel ??= result.value.modelId;
        const part = mapAiSdkPart(result.value, onWarnings);
        // Set on the fresh part, not spread into a copy: V8 would give every such copy a map of its own.
        if (part?.type === 'finish' && responseModel !== undefined) part.responseModel = responseModel;
        if (part) return { done: false, value: part };
      }
    },
    cancel: () => reader.cancel(),
  };
}
