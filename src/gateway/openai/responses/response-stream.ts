import { CLIENT_CLOSED, CLIENT_STALLED, type RunHandle, type RunResult } from '../../../agents/index.js';
import { isTerminalEvent } from '../../../bus/index.js';
import { createError, isAppError, type AppError } from '../../../errors.js';
import type { SseWriter } from '../../../http/index.js';
import type { ResponseEvents } from './response-events.js';
import type { ResponseObject } from './responses.schema.js';

/**
 * Streams a run as Responses API events. Headers go out with the first text, so a run that fails before saying
 * anything is returned (for a plain HTTP error answer, as on chat completions); after that a failure is
 * `response.failed` and never `response.completed`. The ended response is stored (`finish`) before its terminal
 * event goes out, so a client continuing it at once finds it. A client that goes away cancels the run.
 */
export async function streamResponse(
  run: RunHandle,
  sse: SseWriter,
  events: ResponseEvents,
  finish: (result: RunResult) => Promise<ResponseObject>,
): Promise<AppError | undefined> {
  const open = async () => {
    if (sse.opened) return;
    await sse.write(events.created());
  };
  sse.onClientGone((reason) => run.control.cancel(reason === 'stalled' ? CLIENT_STALLED() : CLIENT_CLOSED()));

  // The answer is whole only when its events reached the terminal one: a stream that lost events ends failed.
  let ended = false;
  let lost: AppError | undefined;
  try {
    for await (const event of run) {
      if (isTerminalEvent(event)) ended = true;
      if (event.type !== 'text-delta') continue;
      await open();
      if (!events.isTextStarted) await sse.write(events.textStarted());
      await sse.write(events.delta(event.delta));
    }
  } catch (error) {
    lost = isAppError(error) ? error : createError('stream_interrupted');
  }
  if (!ended && !sse.closed) lost ??= createError('stream_interrupted');
  if (lost) {
    if (!sse.opened) return lost;
    sse.end(events.failedWith(lost));
    return undefined;
  }
  const result = await run.result;
  let response: ResponseObject;
  try {
    response = await finish(result);
  } catch (error) {
    // Not stored, so it could not be continued: it does not end as completed either.
    const failure = isAppError(error) ? error : createError('internal_error');
    if (!sse.opened) return failure;
    sse.end(events.failedWith(failure));
    return undefined;
  }
  if (result.status !== 'completed') {
    if (!sse.opened) return result.error;
    sse.end(events.failed(response));
    return undefined;
  }
  await open();
  sse.end(events.ended(response));
  return undefined;
}
