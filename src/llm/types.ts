import type { Logger } from '../logger.js';
import type { TraceSpan } from '../telemetry/index.js';
/** The narrow seam between the agent runtime and model providers. Only llm/ knows the AI SDK. */

/** A JSON-schema object describing a tool's arguments (`type: "object"`). */
export interface JsonSchemaObject {
  type: 'object';
  properties?: Record<string, unknown>;
  required?: string[];
  [key: string]: unknown;
}

/** A tool as the model sees it (OpenAI function-calling shape, flattened). */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: JsonSchemaObject;
  /**
   * A client tool whose call waits for a person or peer to answer (an A2A agent's requires_input): the run
   * ends `input_required` instead of `completed`. Never sent to a provider.
   */
  awaitsCaller?: boolean;
  /** The caller asked for strict schema adherence (OpenAI's `strict`); providers that support it enforce it. */
  strict?: boolean;
}

/** Which tool the model must call (OpenAI's `tool_choice`): any or none, at least one, or the named one. */
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments as the model produced them: a JSON text. */
  arguments: string;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; tool_calls?: ToolCall[] }
  | { role: 'tool'; content: string; tool_call_id: string; name: string };

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  /** True when the provider reported no usage and tokens were counted locally. */
  estimated: boolean;
}

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'error' | 'other';

/** The structured output a caller asked for; plain text when unset. */
export type ResponseFormat =
  | { type: 'json_object' }
  | {
      type: 'json_schema';
      name: string;
      description?: string;
      schema: Record<string, unknown>;
      /** The provider constrains its output to the schema (OpenAI's strict mode). */
      strict?: boolean;
    };

/**
 * Sampling and output settings a caller set for its run's model calls, in OpenAI's meaning (camelCase). A
 * provider that cannot honour one is refused before the run starts (findUnsupportedOption), never ignored.
 */
export interface ModelCallOptions {
  topP?: number;
  stop?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  /** Token id (as a string) → bias from -100 to 100. */
  logitBias?: Record<string, number>;
  logprobs?: boolean;
  topLogprobs?: number;
  reasoningEffort?: 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';
  verbosity?: 'low' | 'medium' | 'high';
  responseFormat?: ResponseFormat;
}

export interface ModelCallRequest {
  /** `<provider>/<model id>` as configured on the agent. */
  model: string;
  /** Tried in order after `model` when it fails in a way another provider may not (docs/operations.md). */
  fallbackModels?: string[];
  /** Hears of each attempt as it ends: the step's prompt log lists them. */
  onAttempt?: (attempt: ModelAttempt) => void;
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  /** Sent with `tools` only; the provider's default (`auto`) when unset. */
  toolChoice?: ToolChoice;
  /** False: at most one tool call per answer. Sent with `tools` only; the provider's default when unset. */
  parallelToolCalls?: boolean;
  temperature?: number;
  maxTokens?: number;
  /** The caller's sampling and output settings (the gateway's own calls set none). */
  options?: ModelCallOptions;
  /** Aborts the upstream request at once (run cancel, client gone). */
  signal?: AbortSignal;
  /** The call's `chat` span: its trace context is sent upstream (`traceparent`). */
  trace?: TraceSpan;
  /** The run's logger (its trace ids bound when traced): a retry's warning is a line of the run's trace. */
  log?: Logger;
}

/** One attempt of a model call at one target. */
export interface ModelAttempt {
  /** `<provider>/<model id>` of the target. */
  model: string;
  status: 'ok' | 'failed';
  latencyMs: number;
  /** Why it failed: `connection`, `timeout`, `stalled`, `rate_limited`, `server_error`, … (docs/operations.md). */
  reason?: string;
  upstreamStatus?: number;
  /** What the call did next: the same target again, the next target, or nothing (it failed). */
  next?: 'retry' | 'fallback' | 'none';
  message?: string;
}

/** Token counts as the provider reported them; a missing count is estimated later. */
export interface ReportedUsage {
  inputTokens?: number;
  outputTokens?: number;
  cachedInputTokens?: number;
}

/**
 * What a streamed model call yields, in order; `end` is always last. `usage` is the provider's count so
 * far (OpenAI sends it last, some servers with every chunk): a call that breaks after it is billed by it.
 */
export type ModelStreamPart =
  | { type: 'text-delta'; delta: string }
  | { type: 'tool-call'; toolCall: ToolCall }
  | { type: 'usage'; usage: ReportedUsage }
  | {
      type: 'end';
      finishReason: FinishReason;
      usage: Usage;
      text: string;
      toolCalls: ToolCall[];
      /** The model id the provider says answered (its response's `model`), when it said. */
      responseModel?: string;
    };

export interface ModelCallResult {
  text: string;
  toolCalls: ToolCall[];
  finishReason: FinishReason;
  usage: Usage;
  /** Milliseconds from request to the first text or tool-call part (equal to latency when there was none). */
  timeToFirstTokenMs: number;
  latencyMs: number;
}

export interface ModelInfo {
  provider: string;
  modelId: string;
  providerType: 'openai' | 'openai-compatible' | 'anthropic' | 'dev';
}

export interface ModelClient {
  /**
   * Streams one model call. Failures throw UpstreamError. Retryable failures (429, 5xx, connection
   * errors, honouring Retry-After) are retried inside, but only before the first part was yielded.
   */
  stream(request: ModelCallRequest): AsyncIterable<ModelStreamPart>;
  /** One model call, collected. */
  generate(request: ModelCallRequest): Promise<ModelCallResult>;
  /** Throws ValidationError for a model whose provider is not configured. */
  describe(model: string): ModelInfo;
}
