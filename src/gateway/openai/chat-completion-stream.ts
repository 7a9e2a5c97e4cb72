import { CLIENT_CLOSED, CLIENT_STALLED, type RunHandle } from '../../agents/index.js';
import { isTerminalEvent } from '../../bus/index.js';
import { createError, isAppError, type AppError } from '../../errors.js';
import type { SseWriter } from '../../http/index.js';
import {
  createChunk,
  createErrorBody,
  createUsageChunk,
  mapFinishReason,
  toOpenAiToolCall,
  type CompletionIdentity,
} from './chat-completion.js';

export interface ChatCompletionStreamOptions {
  identity: CompletionIdentity;
  includeUsage: boolean;
}

/** One `data:` event: the framing OpenAI clients parse. */
const frame = (data: string) => `data: ${data}\n\n`;

/**
 * Streams a run as `chat.completion.chunk` events. Headers go out with the first text, so a run that
 * fails before saying anything is returned (for a plain HTTP error answer); after that a failure is
 * one error chunk and the stream closes without [DONE]. A client that goes away cancels the run,
 * whose record then says `cancelled` / `client_closed` (or `client_stalled` when it stopped reading).
 * Each write is awaited before the next event is read, so a client that stops reading holds the run back.
 * Events that stop short of the run's end (lost on the bus) end the stream with an error, never with [DONE].
 */
export async function streamChatCompletion(
  run: RunHandle,
  sse: SseWriter,
  options: ChatCompletionStreamOptions,
): Promise<AppError | undefined> {
  const { identity, includeUsage } = options;
  const send = (payload: object) => sse.write(frame(JSON.stringify(payload)));
  const open = async () => {
    if (sse.opened) return;
    await send(createChunk(identity, { role: 'assistant', content: '' }, null, includeUsage));
  };
  sse.onClientGone((reason) => run.control.cancel(reason === 'stalled' ? CLIENT_STALLED() : CLIENT_CLOSED()));

  // The answer is whole only when its events reached the terminal one: a stream that lost events ends with an error.
  let ended = false;
  let lost: AppError | undefined;
  try {
    for await (const event of run) {
      if (isTerminalEvent(event)) ended = true;
      if (event.type !== 'text-delta') continue;
      await open();
      await send(createChunk(identity, { content: event.delta }, null, includeUsage));
    }
  } catch (error) {
    lost = isAppError(error) ? error : createError('stream_interrupted');
  }
  if (!ended && !sse.closed) lost ??= createError('stream_interrupted');
  if (lost) {
    if (!sse.opened) return lost;
    sse.end(frame(JSON.stringify(createErrorBody(lost))));
    return undefined;
  }
  const result = await run.result;
  if (result.status !== 'completed') {
    if (!sse.opened) return result.error;
    sse.end(frame(JSON.stringify(createErrorBody(result.error))));
    return undefined;
  }
  await open();
  // The caller's tool calls, as OpenAI streams them: each opens with its id and name, its arguments follow.
  for (const [index, call] of (result.clientToolCalls ?? []).entries()) {
    const { id, type, function: fn } = toOpenAiToolCall(call);
    await send(
      createChunk(
        identity,
        { tool_calls: [{ index, id, type, function: { name: fn.name, arguments: '' } }] },
        null,
        includeUsage,
      ),
    );
    await send(
      createChunk(identity, { tool_calls: [{ index, function: { arguments: fn.arguments } }] }, null, includeUsage),
    );
  }
  await send(createChunk(identity, {}, mapFinishReason(result), includeUsage));
  if (includeUsage) await send(createUsageChunk(identity, result.usage));
  sse.end(frame('[DONE]'));
  return undefined;
}
