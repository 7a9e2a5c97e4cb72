import type { ChatMessage } from '../../llm/index.js';

export interface MergedConversation {
  /** What the run sends to the model (before the agent's system prompt): the stored history, then `pending`. */
  conversation: ChatMessage[];
  /**
   * The session's stored messages, the same objects that start `conversation`: what a run's prompt logs and
   * resume input refer to instead of copying (records/prompt-log-refs.ts).
   */
  history: ChatMessage[];
  /** The request's messages the session does not hold yet; stored when the run completes. */
  pending: ChatMessage[];
}

/**
 * Joins a session's stored history with a request's messages. A client that resends the whole
 * history (it starts with the stored messages) is not duplicated; otherwise the request's
 * non-system messages are new turns appended to the stored history. Either way the conversation is the
 * stored history, then the new turns.
 */
export function mergeSessionHistory(stored: ChatMessage[], incoming: ChatMessage[]): MergedConversation {
  // A resent history is taken as stored (the same turns): the conversation starts with the stored objects.
  const pending = startsWith(incoming, stored)
    ? incoming.slice(stored.length)
    : nameToolResults(
        stored,
        incoming.filter((message) => message.role !== 'system'),
      );
  return { conversation: [...stored, ...pending], history: stored, pending };
}

/**
 * A client that sends only the results of tool calls the session holds (OpenAI `tool` messages carry no tool
 * name) gets each result named after its call: providers such as Anthropic need the name.
 */
function nameToolResults(stored: ChatMessage[], pending: ChatMessage[]): ChatMessage[] {
  if (!pending.some((message) => message.role === 'tool' && message.name === '')) return pending;
  const names = new Map<string, string>();
  for (const message of stored)
    if (message.role === 'assistant') for (const call of message.tool_calls ?? []) names.set(call.id, call.name);
  return pending.map((message) =>
    message.role === 'tool' && message.name === ''
      ? { ...message, name: names.get(message.tool_call_id) ?? '' }
      : message,
  );
}

function startsWith(messages: ChatMessage[], prefix: ChatMessage[]): boolean {
  return prefix.length <= messages.length && prefix.every((message, index) => sameMessage(message, messages[index]));
}

function sameMessage(a: ChatMessage, b: ChatMessage): boolean {
  if (a.role !== b.role || a.content !== b.content) return false;
  if (a.role === 'tool' && b.role === 'tool') return a.tool_call_id === b.tool_call_id;
  return true;
}
