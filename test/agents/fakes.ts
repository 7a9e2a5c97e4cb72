import type {
  ModelCallRequest,
  ModelClient,
  ModelStreamPart,
  ToolCall,
  ToolDefinition,
  Usage,
} from '../../src/llm/index.js';
import { ToolExecutionError, type ToolRegistry } from '../../src/tools/index.js';

/** One scripted model answer: text (streamed in `deltas` when given), tool calls, or a failure. */
export interface ScriptedAnswer {
  text?: string;
  deltas?: string[];
  toolCalls?: ToolCall[];
  usage?: Partial<Usage>;
  /** Thrown before any part (or after the deltas, with `failAfterDeltas`). */
  error?: Error;
  failAfterDeltas?: boolean;
  /** Never answers until the request is aborted. */
  hang?: boolean;
  /** Awaited before each delta is yielded (lets a test hold the model mid-answer). */
  beforeDelta?: (index: number) => Promise<void> | void;
}

export interface FakeModelClient extends ModelClient {
  requests: ModelCallRequest[];
  script(...answers: ScriptedAnswer[]): void;
}

/** A ModelClient that replays scripted answers in order, then echoes the last user message. */
export function createFakeModelClient(): FakeModelClient {
  const queue: ScriptedAnswer[] = [];
  const requests: ModelCallRequest[] = [];
  async function* stream(request: ModelCallRequest): AsyncGenerator<ModelStreamPart> {
    requests.push({ ...request, messages: [...request.messages] });
    const answer = queue.shift() ?? {
      text: `echo: ${[...request.messages].reverse().find((m) => m.role === 'user')?.content ?? ''}`,
    };
    if (answer.hang)
      await new Promise((_, reject) =>
        request.signal?.addEventListener('abort', () => reject(request.signal?.reason), { once: true }),
      );
    if (answer.error && !answer.failAfterDeltas) throw answer.error;
    const text = answer.text ?? '';
    for (const [index, delta] of (answer.deltas ?? (text ? [text] : [])).entries()) {
      await answer.beforeDelta?.(index);
      yield { type: 'text-delta', delta };
    }
    if (answer.error) throw answer.error;
    for (const toolCall of answer.toolCalls ?? []) yield { type: 'tool-call', toolCall };
    const usage: Usage = { inputTokens: 10, outputTokens: 5, cachedInputTokens: 0, estimated: false, ...answer.usage };
    yield {
      type: 'end',
      finishReason: answer.toolCalls?.length ? 'tool_calls' : 'stop',
      usage,
      text,
      toolCalls: answer.toolCalls ?? [],
    };
  }
  return {
    requests,
    script: (...answers) => queue.push(...answers),
    stream,
    generate: () => Promise.reject(new Error('not used by the runtime')),
    describe: (model) => ({
      provider: model.split('/')[0],
      modelId: model.split('/')[1],
      providerType: 'openai-compatible',
    }),
  };
}

export type FakeTool = (args: Record<string, unknown>, signal?: AbortSignal) => Promise<string> | string;

export interface FakeToolRegistry extends ToolRegistry {
  calls: { name: string; args: unknown }[];
}

/** A ToolRegistry over plain functions; any throw becomes a ToolExecutionError, as the real one does. */
export function createFakeToolRegistry(
  tools: Record<string, FakeTool>,
  idempotent: readonly string[] = [],
): FakeToolRegistry {
  const definitions: ToolDefinition[] = Object.keys(tools)
    .sort()
    .map((name) => ({ name, description: `the ${name} tool`, parameters: { type: 'object', properties: {} } }));
  const calls: { name: string; args: unknown }[] = [];
  return {
    calls,
    list: () => definitions,
    forAgent: (names) => definitions.filter((tool) => names.includes(tool.name)),
    get: (name) => definitions.find((tool) => tool.name === name),
    mcpServers: () => [],
    isIdempotent: (name) => idempotent.includes(name),
    async execute(name, args, options) {
      calls.push({ name, args });
      const tool = tools[name];
      if (!tool) throw new ToolExecutionError(`unknown tool ${name}`, 'unknown_tool');
      try {
        return await tool(args as Record<string, unknown>, options?.signal);
      } catch (error) {
        throw new ToolExecutionError((error as Error).message, options?.signal?.aborted ? 'aborted' : 'failed');
      }
    },
    close: async () => undefined,
  };
}

export const toolCall = (
  name: string,
  args: object = {},
  id = `call_${name}_${Math.random().toString(36).slice(2, 8)}`,
): ToolCall => ({ id, name, arguments: JSON.stringify(args) });
