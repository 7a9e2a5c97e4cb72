import { countCompletionTokens, countPromptTokens } from './count-tokens.js';
import type { ReportedUsage } from './model-transport.js';
import type { ChatMessage, ToolCall, ToolDefinition, Usage } from './types.js';

export interface UsageContext {
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  text: string;
  toolCalls: ToolCall[];
}

/** Takes the provider's counts; whatever it did not report is counted locally and marked estimated. */
export function mapUsage(usage: ReportedUsage | undefined, context: UsageContext): Usage {
  const reportedInput = usage?.inputTokens;
  const reportedOutput = usage?.outputTokens;
  return {
    inputTokens: reportedInput ?? countPromptTokens(context.messages, context.tools),
    outputTokens: reportedOutput ?? countCompletionTokens(context.text, context.toolCalls),
    cachedInputTokens: usage?.cachedInputTokens ?? 0,
    estimated: reportedInput === undefined || reportedOutput === undefined,
  };
}

/** Counts a call's tokens locally, marked estimated: for a call that broke before the provider reported any. */
export function estimateUsage(context: UsageContext): Usage {
  return mapUsage(undefined, context);
}
