import type { LanguageModelV3Content } from '@ai-sdk/provider';
import { createCallSignal } from './call-signal.js';
import { mapFinishReason } from './map-finish-reason.js';
import { mapUsage } from './map-usage.js';
import { reportWarnings, type ModelCall } from './model-call.js';
import { runWithRetries } from './run-with-retries.js';
import type { ModelCallResult, ToolCall } from './types.js';

function collectContent(content: LanguageModelV3Content[]): { text: string; toolCalls: ToolCall[] } {
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const part of content) {
    if (part.type === 'text') text += part.text;
    if (part.type === 'tool-call') toolCalls.push({ id: part.toolCallId, name: part.toolName, arguments: part.input });
  }
  return { text, toolCalls };
}

/** One non-streamed model call, retried on retryable failures within the deadline. */
export async function generateModelCall(call: ModelCall): Promise<ModelCallResult> {
  const started = performance.now();
  const callSignal = createCallSignal(call.entry.timeoutMs, call.request.signal);
  try {
    const result = await runWithRetries(call, callSignal, (signal) => call.model.doGenerate({ ...call.options, abortSignal: signal }));
    reportWarnings(call, result.warnings);
    const { text, toolCalls } = collectContent(result.content);
    const latencyMs = Math.round(performance.now() - started);
    return {
      text,
      toolCalls,
      finishReason: mapFinishReason(result.finishReason),
      usage: mapUsage(result.usage, { messages: call.request.messages, tools: call.request.tools, text, toolCalls }),
      timeToFirstTokenMs: latencyMs,
      latencyMs,
    };
  } finally {
    callSignal.dispose();
  }
}
