import type { ServerResponse } from 'node:http';
import { formatSSEErrorEvent, formatSSEEvent } from '@a2a-js/sdk';
import type { AppError } from '../../errors.js';
import {
  createSseWriter,
  DEFAULT_STALLED_TIMEOUT_MS,
  type CredentialWatch,
  type SseHeaders,
} from '../../http/index.js';

export interface SseStreamOptions {
  /** Headers already decided for the response (request id, CORS). */
  headers: SseHeaders;
  /** The JSON-RPC error envelope sent as an `error` event when the stream fails midway. */
  errorEnvelope(error: unknown): object;
  onError?(error: unknown): void;
  /** A client that reads nothing for this long is disconnected. Default: DEFAULT_STALLED_TIMEOUT_MS. */
  stalledTimeoutMs?: number;
  /** The request's credential: when it lapses the stream ends with `lapseEnvelope(error)` as an `error` event. */
  credential?: CredentialWatch;
  /** The JSON-RPC error envelope of a lapsed credential (a 401). Default: errorEnvelope. */
  lapseEnvelope?(error: AppError): object;
}

/**
 * Writes JSON-RPC responses as SSE `data:` events, the framing the SDK's clients parse. A failure
 * after the first event becomes an `event: error`, and so does a credential that lapses (expired, revoked:
 * the JSON-RPC error names the code). When the client leaves or the credential lapses, writing stops; the
 * task itself goes on (it can be read with tasks/get).
 */
export async function writeSseStream(
  res: ServerResponse,
  first: object,
  rest: AsyncIterator<object>,
  options: SseStreamOptions,
): Promise<void> {
  const sse = createSseWriter(res, {
    headers: () => options.headers,
    stalledTimeoutMs: options.stalledTimeoutMs ?? DEFAULT_STALLED_TIMEOUT_MS,
    credential: options.credential,
    lapseEvent: (error: AppError) => formatSSEErrorEvent((options.lapseEnvelope ?? options.errorEnvelope)(error)),
  });
  try {
    await sse.write(formatSSEEvent(first));
    for (let next = await rest.next(); !next.done && !sse.closed; next = await rest.next())
      await sse.write(formatSSEEvent(next.value));
    sse.end();
  } catch (error) {
    options.onError?.(error);
    sse.end(formatSSEErrorEvent(options.errorEnvelope(error)));
  } finally {
    // Lets the SDK stop draining the task's events for this stream.
    if (sse.signal.aborted) void rest.return?.(undefined);
  }
}
