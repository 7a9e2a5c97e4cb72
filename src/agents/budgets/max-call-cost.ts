import {
  countMessageTokens,
  countPromptTokens,
  countToolDefinitionTokens,
  type ChatMessage,
  type ToolDefinition,
} from '../../llm/index.js';
import { roundUsd, type RunPricing } from '../records/run-recorder.js';

/**
 * Output tokens reserved for a call whose max_tokens is not set (by the agent or the request) while the agent
 * has no answered call of that model stored to average (its first runs). Nothing bounds such a call's answer,
 * so what it says past this many tokens can take a budget past its limit.
 */
export const UNCAPPED_CALL_OUTPUT_TOKENS = 1024;

export interface MaxCallCostOptions {
  pricing: RunPricing;
  model: string;
  tools: ToolDefinition[];
  maxTokens: number | undefined;
  /**
   * Output tokens to reserve when max_tokens is not set: the agent's stored average per call (budgets/run-budget.ts);
   * UNCAPPED_CALL_OUTPUT_TOKENS when unset.
   */
  uncappedOutputTokens?: number;
}

/**
 * What one model call of a run can cost at most: its prompt as counted here (o200k, as a call without reported
 * usage is billed) and max_tokens of output, priced and rounded as a step's cost is. A run's messages are counted
 * once each (later calls resend them), its tool definitions once.
 */
export function createMaxCallCost({ pricing, model, tools, maxTokens, uncappedOutputTokens }: MaxCallCostOptions) {
  const counted = new WeakMap<ChatMessage, number>();
  const countMessage = (message: ChatMessage): number => {
    let tokens = counted.get(message);
    if (tokens === undefined) {
      tokens = countMessageTokens(message);
      counted.set(message, tokens);
    }
    return tokens;
  };
  const usageOf = (inputTokens: number, outputTokens: number) => ({
    inputTokens,
    outputTokens,
    cachedInputTokens: 0,
    estimated: true,
  });
  // A model whose input costs nothing (unpriced, the dev model) needs no count, nor the tokenizer loaded.
  let inputPriced: boolean | undefined;
  let toolTokens: number | undefined;

  return (messages: ChatMessage[]): number => {
    inputPriced ??= pricing.price(model, usageOf(1_000_000, 0)).costUsd > 0;
    let inputTokens = 0;
    if (inputPriced) {
      toolTokens ??= countToolDefinitionTokens(tools);
      inputTokens = countPromptTokens(messages, [], countMessage) + toolTokens;
    }
    const usage = usageOf(inputTokens, maxTokens ?? uncappedOutputTokens ?? UNCAPPED_CALL_OUTPUT_TOKENS);
    return roundUsd(pricing.price(model, usage).costUsd);
  };
}
