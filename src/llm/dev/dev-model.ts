import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { createDevReply, type DevReply } from './create-dev-reply.js';

// No counts: the client counts tokens locally and marks the usage estimated.
const NO_USAGE: LanguageModelV3Usage = {
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

function replyTo(options: LanguageModelV3CallOptions): DevReply {
  // tool_choice none: the tools are there to read, not to call.
  const toolNames = options.toolChoice?.type === 'none' ? [] : (options.tools ?? []).map((tool) => tool.name);
  return createDevReply(options.prompt, toolNames);
}

/** Splits before each run of whitespace that precedes a word, so the pieces join back to the text. */
function wordChunks(text: string): string[] {
  return text.split(/(?=\s+\S)/).filter(Boolean);
}

function toParts(reply: DevReply): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  if (reply.kind === 'text') {
    parts.push({ type: 'text-start', id: 'text-0' });
    for (const delta of wordChunks(reply.text)) parts.push({ type: 'text-delta', id: 'text-0', delta });
    parts.push({ type: 'text-end', id: 'text-0' });
  } else {
    for (const call of reply.calls) {
      parts.push({ type: 'tool-input-start', id: call.id, toolName: call.name });
      parts.push({ type: 'tool-input-delta', id: call.id, delta: call.input });
      parts.push({ type: 'tool-input-end', id: call.id });
      parts.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.input });
    }
  }
  const unified = reply.kind === 'text' ? 'stop' : 'tool-calls';
  parts.push({ type: 'finish', usage: NO_USAGE, finishReason: { unified, raw: unified } });
  return parts;
}

/** The offline development model: deterministic answers, no network. Not a real LLM. */
export function createDevModel(options: { provider: string; modelId: string }): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: `dev.${options.provider}`,
    modelId: options.modelId,
    supportedUrls: {},
    async doGenerate(callOptions) {
      callOptions.abortSignal?.throwIfAborted();
      const reply = replyTo(callOptions);
      const content: LanguageModelV3Content[] =
        reply.kind === 'text'
          ? [{ type: 'text', text: reply.text }]
          : reply.calls.map((call) => ({
              type: 'tool-call',
              toolCallId: call.id,
              toolName: call.name,
              input: call.input,
            }));
      const unified = reply.kind === 'text' ? 'stop' : 'tool-calls';
      return { content, finishReason: { unified, raw: unified }, usage: NO_USAGE, warnings: [] };
    },
    async doStream(callOptions) {
      callOptions.abortSignal?.throwIfAborted();
      const parts = toParts(replyTo(callOptions));
      const signal = callOptions.abortSignal;
      // One part per pull, so consumers see a real stream of word chunks.
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        async pull(controller) {
          await new Promise((resolve) => setImmediate(resolve));
          if (signal?.aborted) return controller.error(signal.reason);
          const next = parts.shift();
          if (next) controller.enqueue(next);
          else controller.close();
        },
      });
      return { stream };
    },
  };
}
