import type {
  LanguageModelV3CallOptions,
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultPart,
} from '@ai-sdk/provider';
import type { ChatMessage, ToolCall, ToolChoice, ToolDefinition } from '../types.js';

function parseArguments(call: ToolCall): unknown {
  try {
    return JSON.parse(call.arguments);
  } catch {
    // Providers re-serialise the input; passing the raw text keeps what the model produced.
    return call.arguments;
  }
}

/** Converts our OpenAI-shaped messages to the AI SDK prompt; consecutive tool results become one tool message. */
export function convertToPrompt(messages: ChatMessage[]): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Message[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        prompt.push({ role: 'system', content: message.content });
        break;
      case 'user':
        prompt.push({ role: 'user', content: [{ type: 'text', text: message.content }] });
        break;
      case 'assistant':
        prompt.push({
          role: 'assistant',
          content: [
            ...(message.content ? [{ type: 'text' as const, text: message.content }] : []),
            ...(message.tool_calls ?? []).map((call) => ({
              type: 'tool-call' as const,
              toolCallId: call.id,
              toolName: call.name,
              input: parseArguments(call),
            })),
          ],
        });
        break;
      case 'tool': {
        const part: LanguageModelV3ToolResultPart = {
          type: 'tool-result',
          toolCallId: message.tool_call_id,
          toolName: message.name,
          output: { type: 'text', value: message.content },
        };
        const previous = prompt.at(-1);
        if (previous?.role === 'tool') previous.content.push(part);
        else prompt.push({ role: 'tool', content: [part] });
        break;
      }
      default: {
        const exhaustive: never = message;
        throw new Error(`unknown message role in ${JSON.stringify(exhaustive)}`);
      }
    }
  }
  return prompt;
}

export function convertToTools(tools: ToolDefinition[] | undefined): LanguageModelV3FunctionTool[] | undefined {
  if (!tools || tools.length === 0) return undefined;
  return tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    inputSchema: tool.parameters as LanguageModelV3FunctionTool['inputSchema'],
    ...(tool.strict !== undefined && { strict: tool.strict }),
  }));
}

export function convertToolChoice(choice: ToolChoice | undefined): LanguageModelV3CallOptions['toolChoice'] {
  if (choice === undefined || choice === 'auto') return { type: 'auto' };
  return typeof choice === 'string' ? { type: choice } : { type: 'tool', toolName: choice.name };
}

type ProviderOptions = LanguageModelV3CallOptions['providerOptions'];

/** Both sets of provider options, each provider's merged. */
export function mergeProviderOptions(a: ProviderOptions, b: ProviderOptions): ProviderOptions {
  if (!a || !b) return a ?? b;
  const merged: NonNullable<ProviderOptions> = { ...a };
  for (const [provider, options] of Object.entries(b)) merged[provider] = { ...merged[provider], ...options };
  return merged;
}

/** `parallel_tool_calls` in each provider's own option (the AI SDK has no common one). */
export function parallelToolCallOptions(parallel: boolean | undefined): LanguageModelV3CallOptions['providerOptions'] {
  if (parallel === undefined) return undefined;
  return { openai: { parallelToolCalls: parallel }, anthropic: { disableParallelToolUse: !parallel } };
}
