import type { FinishReason, RunResult, RunUsage } from '../../../agents/index.js';
import type { OutputMessageItem, ResponseObject, ResponseUsage, TextFormat } from './responses.schema.js';

/** What a Response object says about its request, the same from `response.created` to the stored one. */
export interface ResponseRequestFields {
  id: string;
  createdAt: number;
  /** The agent name, as the client asked for it. */
  model: string;
  instructions: string | null;
  maxOutputTokens: number | null;
  /** The temperature the run used: the request's, else the agent's. */
  temperature: number;
  /** The request's top_p; null when the provider's default applies. */
  topP: number | null;
  text: { format: TextFormat; verbosity?: 'low' | 'medium' | 'high' };
  metadata: Record<string, string>;
  previousResponseId: string | null;
  store: boolean;
  user: string | null;
}

/** The response id carries the run id's digits, so a client's log line leads to the run record. */
export function createResponseId(runId: string): string {
  return `resp_${runId.replace(/^run_/, '')}`;
}

/** The answer's message item id, from the same digits. */
export function createMessageItemId(responseId: string): string {
  return `msg_${responseId.replace(/^resp_/, '')}`;
}

export function mapUsage(usage: RunUsage): ResponseUsage {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.totalTokens,
  };
}

/** A response before its run ended: `in_progress`, no output yet (response.created, response.in_progress). */
export function createPendingResponse(fields: ResponseRequestFields): ResponseObject {
  return baseResponse(fields, 'in_progress', [], null);
}

export function createMessageItem(
  responseId: string,
  text: string,
  status: OutputMessageItem['status'],
): OutputMessageItem {
  return {
    type: 'message',
    id: createMessageItemId(responseId),
    status,
    role: 'assistant',
    content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
  };
}

/**
 * The Response object of an ended run. A completed run cut short by `max_output_tokens` or a content filter is
 * `incomplete`, as OpenAI says it; a failed one keeps what it said before failing, with its error.
 */
export function createEndedResponse(fields: ResponseRequestFields, result: RunResult): ResponseObject {
  const usage = mapUsage(result.usage);
  const completedAt = Math.floor(Date.now() / 1000);
  if (result.status !== 'completed') {
    const output = result.output ? [createMessageItem(fields.id, result.output, 'incomplete')] : [];
    const response = baseResponse(fields, result.status, output, usage);
    return { ...response, error: { code: result.error.code, message: result.error.message } };
  }
  const incomplete = incompleteReason(result.finishReason);
  const output = [createMessageItem(fields.id, result.output, incomplete ? 'incomplete' : 'completed')];
  const response = baseResponse(fields, incomplete ? 'incomplete' : 'completed', output, usage);
  return {
    ...response,
    completed_at: incomplete ? null : completedAt,
    incomplete_details: incomplete ? { reason: incomplete } : null,
  };
}

function incompleteReason(reason: FinishReason): 'max_output_tokens' | 'content_filter' | undefined {
  if (reason === 'length') return 'max_output_tokens';
  if (reason === 'content_filter') return 'content_filter';
  return undefined;
}

function baseResponse(
  fields: ResponseRequestFields,
  status: ResponseObject['status'],
  output: OutputMessageItem[],
  usage: ResponseUsage | null,
): ResponseObject {
  return {
    id: fields.id,
    object: 'response',
    created_at: fields.createdAt,
    status,
    completed_at: null,
    error: null,
    incomplete_details: null,
    instructions: fields.instructions,
    max_output_tokens: fields.maxOutputTokens,
    metadata: fields.metadata,
    model: fields.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: fields.previousResponseId,
    store: fields.store,
    temperature: fields.temperature,
    top_p: fields.topP,
    text: fields.text,
    tool_choice: 'auto',
    tools: [],
    truncation: 'disabled',
    background: false,
    service_tier: 'default',
    usage,
    user: fields.user,
  };
}
