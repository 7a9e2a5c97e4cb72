import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { RunFrame } from './run-frame.js';
import type { EventSink } from './stream-run-events.js';

/** The AG-UI side of an SSE response: frames (`id:` + `event:` + `data:` blocks, LF framing), heartbeats, backpressure. */
export interface SseWriter extends EventSink {
  /** Sends the status line and headers and starts the heartbeat; later calls do nothing. */
  open(): void;
  /** Writes the frame's SSE block in one write; a promise only while the socket buffer is full. */
  write(frame: RunFrame): Promise<void> | undefined;
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

export function createSseWriter(res: ServerResponse, options: SseWriterOptions): SseWriter {
  let opened = false;
  let heartbeat: NodeJS.Timeout | undefined;
  const gone = () => res.destroyed || res.writableEnded;
  const stopHeartbeat = () => clearInterval(heartbeat);
  // A write racing a closed socket must not become an unhandled 'error' event.
  res.on('error', () => undefined);
  res.on('close', stopHeartbeat);

  const write = (chunk: string | Buffer): Promise<void> | undefined => {
    if (gone() || res.write(chunk)) return undefined;
    return drained(res);
  };

  return {
    get closed() {
      return gone();
    },
    open() {
      if (opened) return;
      opened = true;
      options.beforeOpen?.();
      const headers = Object.fromEntries(
        Object.entries(options.headers?.() ?? {}).filter(([, value]) => value !== undefined),
      );
      res.writeHead(200, { ...headers, ...SSE_HEADERS });
      res.flushHeaders();
      heartbeat = setInterval(() => void write(': ping\n\n'), options.heartbeatMs);
      heartbeat.unref();
    },
    write(frame) {
      return frame.events.length > 0 ? write(frame.sse) : undefined;
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

/** Resolves on 'drain' or 'close', removing both listeners, so a long stream that is often behind collects none. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** The SSE writer for a Fastify reply: the reply is hijacked when the stream opens, keeping the headers decided so far. */
export function createReplySseWriter(reply: FastifyReply, heartbeatMs: number): SseWriter {
  return createSseWriter(reply.raw, {
    beforeOpen: () => {
      reply.hijack();
    },
    headers: () => reply.getHeaders(),
    heartbeatMs,
  });
}
