import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { StreamEvent } from './agui-event.js';

/** The AG-UI side of an SSE response: `id:` + `event:` + `data:` blocks, LF framing, heartbeats, backpressure. */
export interface SseWriter {
  /** Sends the status line and headers and starts the heartbeat; later calls do nothing. */
  open(): void;
  /**
   * Writes the events one RunEvent became, in one write. Only the last carries `id:`, so a client that
   * resumes with Last-Event-ID never gets half of a group.
   */
  send(events: StreamEvent[], id?: number): Promise<void>;
  end(): void;
  /** True once the client went away (or end() was called). */
  readonly closed: boolean;
  /** Calls `listener` if the client goes away before end(). */
  onClientGone(listener: () => void): void;
}

export interface SseWriterOptions {
  /** Called once, right before the headers go out (to take the response over from Fastify). */
  beforeOpen?: () => void;
  /** Headers already decided for the response (request id, run id, CORS). */
  headers?: () => Record<string, string | string[] | number | undefined>;
  /** A `: ping` comment this often keeps proxies from closing a quiet stream. */
  heartbeatMs: number;
}

export const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  // nginx buffers proxied responses unless told not to; a buffered stream arrives all at once.
  'x-accel-buffering': 'no',
  connection: 'keep-alive',
} as const;

export function formatSseEvents(events: StreamEvent[], id?: number): string {
  return events
    .map((event, index) => {
      const idLine = id !== undefined && index === events.length - 1 ? `id: ${id}\n` : '';
      return `${idLine}event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
    })
    .join('');
}

export function createSseWriter(res: ServerResponse, options: SseWriterOptions): SseWriter {
  let opened = false;
  let heartbeat: NodeJS.Timeout | undefined;
  const gone = () => res.destroyed || res.writableEnded;
  const stopHeartbeat = () => clearInterval(heartbeat);
  // A write racing a closed socket must not become an unhandled 'error' event.
  res.on('error', () => undefined);
  res.on('close', stopHeartbeat);

  const write = async (text: string) => {
    if (gone()) return;
    if (!res.write(text)) await Promise.race([once(res, 'drain'), once(res, 'close')]).catch(() => undefined);
  };

  return {
    get closed() {
      return gone();
    },
    open() {
      if (opened) return;
      opened = true;
      options.beforeOpen?.();
      const headers = Object.fromEntries(Object.entries(options.headers?.() ?? {}).filter(([, value]) => value !== undefined));
      res.writeHead(200, { ...headers, ...SSE_HEADERS });
      res.flushHeaders();
      heartbeat = setInterval(() => void write(': ping\n\n'), options.heartbeatMs);
      heartbeat.unref();
    },
    async send(events, id) {
      if (events.length > 0) await write(formatSseEvents(events, id));
    },
    end() {
      stopHeartbeat();
      if (!gone()) res.end();
    },
    onClientGone(listener) {
      if (res.destroyed && !res.writableFinished) return listener();
      res.on('close', () => {
        if (!res.writableFinished) listener();
      });
    },
  };
}

/** The SSE writer for a Fastify reply: the reply is hijacked when the stream opens, keeping the headers decided so far. */
export function createReplySseWriter(reply: FastifyReply, heartbeatMs: number): SseWriter {
  return createSseWriter(reply.raw, { beforeOpen: () => reply.hijack(), headers: () => reply.getHeaders(), heartbeatMs });
}
