import type { ChatMessage, ModelCallOptions, ModelCallRequest, ResponseFormat, ToolChoice } from '../types.js';

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
  tools?: {
    type: 'function';
    function: { name: string; description: string; parameters: object; strict?: boolean };
  }[];
  tool_choice?: 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };
  parallel_tool_calls?: boolean;
  top_p?: number;
  stop?: string[];
  seed?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  logit_bias?: Record<string, number>;
  logprobs?: boolean;
  top_logprobs?: number;
  reasoning_effort?: string;
  verbosity?: string;
  response_format?: ChatResponseFormat;
  stream: true;
  stream_options: { include_usage: true };
}

type ChatResponseFormat =
  | { type: 'json_object' }
  | {
      type: 'json_schema';
      json_schema: { name: string; description?: string; schema: Record<string, unknown>; strict?: boolean };
    };

function convertResponseFormat(format: ResponseFormat | undefined): ChatResponseFormat | undefined {
  if (!format || format.type === 'json_object') return format;
  const { name, description, schema, strict } = format;
  return { type: 'json_schema', json_schema: { name, description, schema, strict } };
}

/** The caller's options under their wire names; an unset one is left out of the body. */
function convertOptions(options: ModelCallOptions): Partial<ChatRequestBody> {
  return {
    top_p: options.topP,
    stop: options.stop,
    seed: options.seed,
    presence_penalty: options.presencePenalty,
    frequency_penalty: options.frequencyPenalty,
    logit_bias: options.logitBias,
    logprobs: options.logprobs,
    top_logprobs: options.topLogprobs,
    reasoning_effort: options.reasoningEffort,
    verbosity: options.verbosity,
    response_format: convertResponseFormat(options.responseFormat),
  };
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
      function: { name: tool.name, description: tool.description, parameters: tool.parameters, strict: tool.strict },
    })),
    tool_choice: tools ? convertToolChoice(request.toolChoice ?? 'auto') : undefined,
    parallel_tool_calls: tools ? request.parallelToolCalls : undefined,
    ...(request.options && convertOptions(request.options)),
    stream: true,
    stream_options: { include_usage: true },
  };
}

function convertToolChoice(choice: ToolChoice): NonNullable<ChatRequestBody['tool_choice']> {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}
