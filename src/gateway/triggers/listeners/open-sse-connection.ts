import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { ListenerConfig } from '../../../config/index.js';
import { PermanentSourceError } from '../trigger-source.js';
import { holdSourceLease, type HeldLease } from './hold-source-lease.js';
import { closeSignal, type OpenConnection } from './listener-connection.js';
import type { SourceLeaseStore } from './source-lease.store.js';

type SseListener = Extract<ListenerConfig, { source: 'sse' }>;

export interface SseOpenerOptions {
  fetch?: typeof fetch;
  /** With a shared database, one replica at a time reads the stream; without, this process always does. */
  leases?: SourceLeaseStore;
}

/**
 * Reads an external Server-Sent Events stream. Each event's `id` is remembered once the event is stored
 * and sent back as `Last-Event-ID` on the next connection, so a source that honours it replays what we
 * missed. As in the EventSource spec, an answer that is not an event stream fails for good (4xx), except
 * 408 and 429, which are retried like 5xx and network errors. With leases, only the lease holder connects
 * and the cursor is kept with the lease, so the replica that takes over resumes where the last one stopped.
 */
export function createSseOpener(options: SseOpenerOptions = {}): OpenConnection<SseListener> {
  const fetchImpl = options.fetch ?? fetch;
  let lastEventId: string | undefined;

  return async ({ listener, deliver, logger, signal, replicaId, standby }) => {
    let lease: HeldLease | undefined;
    if (options.leases) {
      const leaseOptions = {
        store: options.leases,
        key: `listener:${listener.name}`,
        holder: replicaId,
        ttlMs: listener.lease_seconds * 1000,
        logger,
      };
      lease = await holdSourceLease(leaseOptions, signal, standby);
      if (!lease) throw new Error('stopped while waiting for the source lease');
      lastEventId = lease.cursor;
    }
    const controller = new AbortController();
    const abort = () => controller.abort();
    signal.addEventListener('abort', abort, { once: true });
    const headers: Record<string, string> = {
      accept: 'text/event-stream',
      'cache-control': 'no-cache',
      ...listener.headers,
    };
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    // Only waiting for the headers is limited here: the stream itself is limited by the idle timeout.
    const headersTimeout = setTimeout(abort, 10_000);
    let response: Response;
    try {
      response = await fetchImpl(listener.url, { headers, signal: controller.signal });
    } catch (error) {
      signal.removeEventListener('abort', abort);
      await lease?.release();
      throw error;
    } finally {
      clearTimeout(headersTimeout);
    }
    const contentType = response.headers.get('content-type') ?? '';
    if (!response.ok || !contentType.toLowerCase().startsWith('text/event-stream') || !response.body) {
      signal.removeEventListener('abort', abort);
      await response.body?.cancel().catch(() => undefined);
      await lease?.release();
      const problem = `${listener.url} answered ${response.status} ${contentType || 'without a content type'}`;
      if (
        response.ok ||
        (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429)
      )
        throw new PermanentSourceError(problem);
      throw new Error(problem);
    }

    const { closed, settle } = closeSignal();
    let ending: Error | undefined;
    const end = (reason: Error) => {
      ending ??= reason;
      controller.abort();
    };
    void lease?.lost.then(end);
    const idleMs = listener.idle_timeout_seconds * 1000;
    const idle = setTimeout(
      () => end(new Error(`the event stream sent nothing for ${listener.idle_timeout_seconds}s`)),
      idleMs,
    );

    // Events are stored one at a time, in order; the cursor only moves past stored events.
    let queue = Promise.resolve();
    const onEvent = (event: EventSourceMessage) => {
      queue = queue.then(async () => {
        if (controller.signal.aborted) return;
        try {
          await deliver({ body: event.data, messageId: event.id || undefined, eventType: event.event });
        } catch (error) {
          logger.error(
            { trigger: `listener:${listener.name}`, err: error },
            'sse event could not be stored; reconnecting from the last stored event',
          );
          return end(new Error('an event could not be stored'));
        }
        if (event.id === undefined) return;
        lastEventId = event.id;
        // Saved in the background: a cursor that lags only makes the next holder replay stored events, which dedupe.
        lease?.saveCursor(event.id);
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
          // Any bytes, comments included, show the source is alive.
          idle.refresh();
          parser.feed(value);
        }
      } catch (error) {
        // undici reports a dropped stream as "terminated" and keeps the socket's reason in `cause`.
        const cause = (error as { cause?: { message?: string } }).cause?.message;
        reason = new Error(`the event stream broke: ${cause ?? (error as Error).message}`);
      }
      clearTimeout(idle);
      signal.removeEventListener('abort', abort);
      // The next connection starts from the last stored event, so the events in hand are stored first.
      await queue;
      await lease?.release();
      settle(ending ?? reason);
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
