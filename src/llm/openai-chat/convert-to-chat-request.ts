import type { ChatMessage, ModelCallRequest } from '../types.js';

type ChatRequestMessage =
  | { role: 'system' | 'user'; content: string }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

/** The streamed Chat Completions request body; undefined fields are left out by JSON.stringify. */
export interface ChatRequestBody {
  model: string;
  max_tokens?: number;
  temperature?: number;
  messages: ChatRequestMessage[];
  tools?: { type: 'function'; function: { name: string; description: string; parameters: object } }[];
  tool_choice?: 'auto';
  stream: true;
  stream_options: { include_usage: true };
}

function convertMessage(message: ChatMessage): ChatRequestMessage {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'assistant': {
      const calls = message.tool_calls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: message.content };
      // Arguments go back as the model wrote them; content may be null beside tool calls (OpenAI's message schema).
      const toolCalls = calls.map((call) => ({
        id: call.id,
        type: 'function' as const,
        function: { name: call.name, arguments: call.arguments },
      }));
      return { role: 'assistant', content: message.content || null, tool_calls: toolCalls };
    }
    case 'tool':
      return { role: 'tool', tool_call_id: message.tool_call_id, content: message.content };
    default: {
      const exhaustive: never = message;
      throw new Error(`unknown message role in ${JSON.stringify(exhaustive)}`);
    }
  }
}

/** Builds the body the AI SDK's openai-compatible provider sent, with usage requested in the stream. */
export function convertToChatRequest(modelId: string, request: ModelCallRequest): ChatRequestBody {
  const tools = request.tools?.length ? request.tools : undefined;
  return {
    model: modelId,
    max_tokens: request.maxTokens,
    temperature: request.temperature,
    messages: request.messages.map(convertMessage),
    tools: tools?.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    })),
    tool_choice: tools ? 'auto' : undefined,
    stream: true,
    stream_options: { include_usage: true },
  };
}
