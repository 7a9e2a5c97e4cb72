import { once } from 'node:events';
import type { ServerResponse } from 'node:http';

/** A hand-written SSE response: headers sent lazily, one write per event, backpressure honoured. */
export interface SseResponse {
  readonly opened: boolean;
  /** Sends the status line and headers; later calls do nothing. */
  open(): void;
  /** Writes one `data:` event; does nothing once the client is gone. */
  send(data: string): Promise<void>;
  end(): void;
  /** Calls `listener` if the client goes away before end(). */
  onClientGone(listener: () => void): void;
}

export interface SseResponseOptions {
  /** Called once, right before the headers go out (e.g. to take the response over from the framework). */
  beforeOpen?: () => void;
  /** Headers already decided for the response (request id, run id, CORS). */
  headers?: () => Record<string, string | string[] | number | undefined>;
}

export function createSseResponse(res: ServerResponse, options: SseResponseOptions = {}): SseResponse {
  let opened = false;
  const gone = () => res.destroyed || res.writableEnded;
  // A write racing a closed socket must not become an unhandled 'error' event.
  res.on('error', () => undefined);
  return {
    get opened() {
      return opened;
    },
    open() {
      if (opened) return;
      opened = true;
      options.beforeOpen?.();
      const headers = Object.fromEntries(
        Object.entries(options.headers?.() ?? {}).filter(([, value]) => value !== undefined),
      );
      res.writeHead(200, {
        ...headers,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        'x-accel-buffering': 'no',
        connection: 'keep-alive',
      });
    },
    async send(data) {
      if (gone()) return;
      if (!res.write(`data: ${data}\n\n`))
        await Promise.race([once(res, 'drain'), once(res, 'close')]).catch(() => undefined);
    },
    end() {
      if (!gone()) res.end();
    },
    onClientGone(listener) {
      res.on('close', () => {
        if (!res.writableFinished) listener();
      });
    },
  };
}
