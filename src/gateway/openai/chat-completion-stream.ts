import { CLIENT_CLOSED, type RunHandle } from '../../agents/index.js';
import type { AppError } from '../../errors.js';
import {
  createChunk,
  createErrorBody,
  createUsageChunk,
  mapFinishReason,
  type CompletionIdentity,
} from './chat-completion.js';
import type { SseResponse } from './sse-response.js';

export interface ChatCompletionStreamOptions {
  identity: CompletionIdentity;
  includeUsage: boolean;
}

/**
 * Streams a run as `chat.completion.chunk` events. Headers go out with the first text, so a run that
 * fails before saying anything is returned (for a plain HTTP error answer); after that a failure is
 * one error chunk and the stream closes without [DONE]. A client that goes away cancels the run,
 * whose record then says `cancelled` / `client_closed`.
 */
export async function streamChatCompletion(
  run: RunHandle,
  sse: SseResponse,
  options: ChatCompletionStreamOptions,
): Promise<AppError | undefined> {
  const { identity, includeUsage } = options;
  const send = (payload: object) => sse.send(JSON.stringify(payload));
  const open = async () => {
    if (sse.opened) return;
    sse.open();
    await send(createChunk(identity, { role: 'assistant', content: '' }, null, includeUsage));
  };
  sse.onClientGone(() => run.control.cancel(CLIENT_CLOSED()));

  for await (const event of run) {
    if (event.type !== 'text-delta') continue;
    await open();
    await send(createChunk(identity, { content: event.delta }, null, includeUsage));
  }
  const result = await run.result;
  if (result.status !== 'completed') {
    if (!sse.opened) return result.error;
    await send(createErrorBody(result.error));
    sse.end();
    return undefined;
  }
  await open();
  await send(createChunk(identity, {}, mapFinishReason(result.finishReason), includeUsage));
  if (includeUsage) await send(createUsageChunk(identity, result.usage));
  await sse.send('[DONE]');
  sse.end();
  return undefined;
}
