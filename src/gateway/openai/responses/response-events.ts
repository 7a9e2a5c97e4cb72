import { randomBytes } from 'node:crypto';
import type { AppError } from '../../../errors.js';
import { createMessageItem, createPendingResponse, type ResponseRequestFields } from './response-object.js';
import type { ResponseObject } from './responses.schema.js';

/**
 * The framed SSE events of one streamed response, in the documented order, each with its `sequence_number`
 * (response.created, response.in_progress, the message item and its text part, text deltas, their `done`
 * events, then response.completed / response.incomplete, or response.failed). Pure: the stream writes them.
 */
export interface ResponseEvents {
  /** response.created and response.in_progress. */
  created(): string;
  /** The message item and its output_text part opening (once), before the first delta. */
  textStarted(): string;
  readonly isTextStarted: boolean;
  delta(text: string): string;
  /** The text, part and item `done` events, then the terminal event of a completed or incomplete response. */
  ended(response: ResponseObject): string;
  /** response.failed: the response with its error and what it said before failing. */
  failed(response: ResponseObject): string;
  /** response.failed for an error the stream met without a run result (a lapsed credential, lost events). */
  failedWith(error: AppError): string;
}

const OUTPUT_INDEX = 0;
const CONTENT_INDEX = 0;

export function createResponseEvents(fields: ResponseRequestFields, options: { obfuscate: boolean }): ResponseEvents {
  const itemId = createMessageItem(fields.id, '', 'in_progress').id;
  let sequence = 0;
  let textStarted = false;
  let said = '';
  const frame = (type: string, payload: object) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...payload, sequence_number: sequence++ })}\n\n`;
  const at = { item_id: itemId, output_index: OUTPUT_INDEX, content_index: CONTENT_INDEX };
  const part = (text: string) => ({ type: 'output_text', text, annotations: [], logprobs: [] });

  const openText = () => {
    if (textStarted) return '';
    textStarted = true;
    const item = { id: itemId, type: 'message', status: 'in_progress', role: 'assistant', content: [] };
    return (
      frame('response.output_item.added', { output_index: OUTPUT_INDEX, item }) +
      frame('response.content_part.added', { ...at, part: part('') })
    );
  };

  return {
    created() {
      const response = createPendingResponse(fields);
      return frame('response.created', { response }) + frame('response.in_progress', { response });
    },
    textStarted: openText,
    get isTextStarted() {
      return textStarted;
    },
    delta(text) {
      said += text;
      // Padding that varies the event's size, so its length does not give the text's away (OpenAI's default).
      const padding = options.obfuscate ? { obfuscation: obfuscation(text) } : {};
      return frame('response.output_text.delta', { ...at, delta: text, logprobs: [], ...padding });
    },
    ended(response) {
      const item = response.output[OUTPUT_INDEX];
      const text = item?.content[CONTENT_INDEX]?.text ?? said;
      const terminal = response.status === 'incomplete' ? 'response.incomplete' : 'response.completed';
      return (
        openText() +
        frame('response.output_text.done', { ...at, text, logprobs: [] }) +
        frame('response.content_part.done', { ...at, part: part(text) }) +
        frame('response.output_item.done', { output_index: OUTPUT_INDEX, item }) +
        frame(terminal, { response })
      );
    },
    failed(response) {
      return frame('response.failed', { response });
    },
    failedWith(error) {
      const pending = createPendingResponse(fields);
      const output = said ? [createMessageItem(fields.id, said, 'incomplete')] : [];
      const response = { ...pending, status: 'failed', output, error: { code: error.code, message: error.message } };
      return frame('response.failed', { response });
    },
  };
}

function obfuscation(text: string): string {
  const length = 16 - (text.length % 16);
  return randomBytes(length).toString('base64url').slice(0, length);
}
