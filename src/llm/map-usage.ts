import type { LanguageModelV3Usage } from '@ai-sdk/provider';
import { countCompletionTokens, countPromptTokens } from './count-tokens.js';
import type { ChatMessage, ToolCall, ToolDefinition, Usage } from './types.js';

export interface UsageContext {
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  text: string;
  toolCalls: ToolCall[];
}

/** Takes the provider's counts; whatever it did not report is counted locally and marked estimated. */
export function mapUsage(usage: LanguageModelV3Usage | undefined, context: UsageContext): Usage {
  const reportedInput = usage?.inputTokens.total;
  const reportedOutput = usage?.outputTokens.total;
  return {
    inputTokens: reportedInput ?? countPromptTokens(context.messages, context.tools),
    outputTokens: reportedOutput ?? countCompletionTokens(context.text, context.toolCalls),
    cachedInputTokens: usage?.inputTokens.cacheRead ?? 0,
    estimated: reportedInput === undefined || reportedOutput === undefined,
  };
}
