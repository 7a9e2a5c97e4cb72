import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { ListenerConfig } from '../../../config/index.js';
import { PermanentSourceError } from '../trigger-source.js';
import { closeSignal, type OpenConnection } from './listener-connection.js';

type SseListener = Extract<ListenerConfig, { source: 'sse' }>;

/**
 * Reads an external Server-Sent Events stream. Each event's `id` is remembered once the event is stored
 * and sent back as `Last-Event-ID` on the next connection, so a source that honours it replays what we
 * missed. As in the EventSource spec, an answer that is not an event stream fails for good (4xx), except
 * 408 and 429, which are retried like 5xx and network errors. The cursor lives as long as the process.
 */
export function createSseOpener(fetchImpl: typeof fetch = fetch): OpenConnection<SseListener> {
  let lastEventId: string | undefined;

  return async ({ listener, deliver, logger, signal }) => {
    const controller = new AbortController();
    const abort = () => controller.abort();
    signal.addEventListener('abort', abort, { once: true });
    const headers: Record<string, string> = { accept: 'text/event-stream', 'cache-control': 'no-cache', ...listener.headers };
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    // Only waiting for the headers is limited: the stream itself stays open as long as the source keeps it.
    const headersTimeout = setTimeout(abort, 10_000);
    let response: Response;
    try {
      response = await fetchImpl(listener.url, { headers, signal: controller.signal });
    } catch (error) {
      signal.removeEventListener('abort', abort);
      throw error;
    } finally {
      clearTimeout(headersTimeout);
    }
    const contentType = response.headers.get('content-type') ?? '';
    if (!response.ok || !contentType.toLowerCase().startsWith('text/event-stream') || !response.body) {
      signal.removeEventListener('abort', abort);
      await response.body?.cancel().catch(() => undefined);
      const problem = `${listener.url} answered ${response.status} ${contentType || 'without a content type'}`;
      if (response.ok || (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429)) throw new PermanentSourceError(problem);
      throw new Error(problem);
    }

    const { closed, settle } = closeSignal();
    // Events are stored one at a time, in order; the cursor only moves past stored events.
    let queue = Promise.resolve();
    const onEvent = (event: EventSourceMessage) => {
      queue = queue.then(async () => {
        if (controller.signal.aborted) return;
        try {
          await deliver({ body: event.data, messageId: event.id || undefined, eventType: event.event });
          if (event.id !== undefined) lastEventId = event.id;
        } catch (error) {
          logger.error({ trigger: `listener:${listener.name}`, err: error }, 'sse event could not be stored; reconnecting from the last stored event');
          controller.abort();
        }
      });
    };
    const parser = createParser({ onEvent });
    void (async () => {
      let reason = new Error('the event stream ended');
      try {
        const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          parser.feed(value);
        }
      } catch (error) {
        // undici reports a dropped stream as "terminated" and keeps the socket's reason in `cause`.
        const cause = (error as { cause?: { message?: string } }).cause?.message;
        reason = new Error(`the event stream broke: ${cause ?? (error as Error).message}`);
      }
      signal.removeEventListener('abort', abort);
      // The next connection starts from the last stored event, so the events in hand are stored first.
      await queue;
      settle(reason);
    })();
    return {
      closed,
      async close() {
        controller.abort();
        await closed;
      },
    };
  };
}
