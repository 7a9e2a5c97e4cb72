import { contentToText, type Context, type Message, type Tool } from '@ag-ui/core';
import type { ChatMessage, ToolDefinition } from '../../agents/index.js';

export interface ConvertedRunAgentInput {
  /** The whole conversation: an AG-UI client owns its thread and sends all of it on every run. */
  messages: ChatMessage[];
  /** The client's tools: the model may call them, the client runs them. */
  clientTools: ToolDefinition[];
}

/**
 * RunAgentInput → what a run takes. `context` becomes one system message; activity and reasoning
 * messages are UI state, not conversation, and are left out. `state` and `forwardedProps` are not used.
 */
export function convertRunAgentInput(input: {
  messages: Message[];
  tools?: Tool[];
  context?: Context[];
}): ConvertedRunAgentInput {
  const toolNames = new Map<string, string>();
  const messages: ChatMessage[] = [];
  const context = input.context ?? [];
  if (context.length > 0) {
    messages.push({
      role: 'system',
      content: ['Context from the application:', ...context.map((item) => `- ${item.description}: ${item.value}`)].join(
        '\n',
      ),
    });
  }
  for (const message of input.messages) {
    const converted = convertMessage(message, toolNames);
    if (converted) messages.push(converted);
  }
  return { messages, clientTools: (input.tools ?? []).map(convertTool) };
}

function convertMessage(message: Message, toolNames: Map<string, string>): ChatMessage | undefined {
  switch (message.role) {
    case 'system':
    case 'developer':
      return { role: 'system', content: message.content };
    case 'user':
      return { role: 'user', content: contentToText(message.content) };
    case 'assistant': {
      const calls = (message.toolCalls ?? []).map((call) => ({
        id: call.id,
        name: call.function.name,
        arguments: call.function.arguments,
      }));
      for (const call of calls) toolNames.set(call.id, call.name);
      const content = message.content ?? '';
      return calls.length > 0 ? { role: 'assistant', content, tool_calls: calls } : { role: 'assistant', content };
    }
    case 'tool': {
      // The model needs to know a frontend tool failed, not just that it returned nothing.
      const content = message.error ? `Error: ${message.error}` : contentToText(message.content);
      return { role: 'tool', content, tool_call_id: message.toolCallId, name: toolNames.get(message.toolCallId) ?? '' };
    }
    case 'activity':
    case 'reasoning':
      return undefined;
    default:
      return assertNever(message);
  }
}

function convertTool(tool: Tool): ToolDefinition {
  const parameters = isObjectSchema(tool.parameters) ? tool.parameters : { type: 'object' as const, properties: {} };
  return { name: tool.name, description: tool.description, parameters };
}

function isObjectSchema(value: unknown): value is ToolDefinition['parameters'] {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'object';
}

function assertNever(message: never): never {
  throw new Error(`unhandled message ${JSON.stringify(message)}`);
}
