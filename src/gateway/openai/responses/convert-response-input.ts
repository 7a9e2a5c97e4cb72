import type { ChatMessage } from '../../../agents/index.js';
import type { CreateResponseBody, ResponseInputItem } from './responses.schema.js';

/** Responses input → the runtime's messages: a string is one user message; `developer` reads as `system`. */
export function convertResponseInput(input: CreateResponseBody['input']): ChatMessage[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  return input.map(convertItem);
}

function convertItem(item: ResponseInputItem): ChatMessage {
  const content = textOf(item.content);
  switch (item.role) {
    case 'system':
    case 'developer':
      return { role: 'system', content };
    case 'user':
      return { role: 'user', content };
    case 'assistant':
      return { role: 'assistant', content };
  }
}

function textOf(content: ResponseInputItem['content']): string {
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'refusal' ? part.refusal : part.text)).join('');
}
