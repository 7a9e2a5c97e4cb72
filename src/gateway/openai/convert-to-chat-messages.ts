import type { ChatMessage } from '../../agents/index.js';
import type { ChatCompletionMessage } from './chat-completions.schema.js';

/** OpenAI request messages → the runtime's messages: text parts joined, `developer` read as `system`. */
export function convertToChatMessages(messages: ChatCompletionMessage[]): ChatMessage[] {
  const toolNames = new Map<string, string>();
  return messages.map((message): ChatMessage => {
    switch (message.role) {
      case 'system':
      case 'developer':
        return { role: 'system', content: textOf(message.content) };
      case 'user':
        return { role: 'user', content: textOf(message.content) };
      case 'assistant': {
        const toolCalls = message.tool_calls?.map((call) => ({
          id: call.id,
          name: call.function.name,
          arguments: call.function.arguments,
        }));
        for (const call of toolCalls ?? []) toolNames.set(call.id, call.name);
        const content = textOf(message.content ?? '');
        return toolCalls?.length
          ? { role: 'assistant', content, tool_calls: toolCalls }
          : { role: 'assistant', content };
      }
      case 'tool':
        return {
          role: 'tool',
          content: textOf(message.content),
          tool_call_id: message.tool_call_id,
          name: toolNames.get(message.tool_call_id) ?? '',
        };
    }
  });
}

function textOf(content: string | { type: 'text'; text: string }[]): string {
  return typeof content === 'string' ? content : content.map((part) => part.text).join('');
}
