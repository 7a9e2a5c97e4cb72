import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { formatSSEErrorEvent, formatSSEEvent, SSE_HEADERS } from '@a2a-js/sdk';

export interface SseStreamOptions {
  /** Headers already decided for the response (request id, CORS). */
  headers: Record<string, string | string[] | number | undefined>;
  /** The JSON-RPC error envelope sent as an `error` event when the stream fails midway. */
  errorEnvelope(error: unknown): object;
  onError?(error: unknown): void;
}

/**
 * Writes JSON-RPC responses as SSE `data:` events, the framing the SDK's clients parse. A failure
 * after the first event becomes an `event: error`. When the client leaves, writing stops; the task
 * itself goes on (it can be read with tasks/get).
 */
export async function writeSseStream(
  res: ServerResponse,
  first: object,
  rest: AsyncIterator<object>,
  options: SseStreamOptions,
): Promise<void> {
  const gone = () => res.destroyed || res.writableEnded;
  // A write racing a closed socket must not become an unhandled 'error' event.
  res.on('error', () => undefined);
  const headers = Object.fromEntries(
    Object.entries(options.headers).filter(([, value]) => value !== undefined),
  ) as Record<string, string | string[] | number>;
  res.writeHead(200, { ...headers, ...SSE_HEADERS });
  const write = async (chunk: string) => {
    if (!gone() && !res.write(chunk))
      await Promise.race([once(res, 'drain'), once(res, 'close')]).catch(() => undefined);
  };
  try {
    await write(formatSSEEvent(first));
    for (let next = await rest.next(); !next.done && !gone(); next = await rest.next())
      await write(formatSSEEvent(next.value));
  } catch (error) {
    options.onError?.(error);
    await write(formatSSEErrorEvent(options.errorEnvelope(error)));
  } finally {
    // Lets the SDK stop draining the task's events for this stream.
    if (gone()) void rest.return?.(undefined);
    if (!gone()) res.end();
  }
}
