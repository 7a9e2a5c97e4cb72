import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

export type SseHeaders = Record<string, string | string[] | number | undefined>;

/** Why a client is gone: it closed the connection, or it stopped reading for longer than the stall timeout. */
export type ClientGoneReason = 'closed' | 'stalled';

export interface SseWriterOptions {
  /** Called once, right before the headers go out (e.g. to take the response over from Fastify). */
  beforeOpen?: () => void;
  /** Headers already decided for the response (request id, run id, CORS). */
  headers?: () => SseHeaders;
  /** A `: ping` comment this often keeps proxies from closing a quiet stream; unset or 0: none. */
  heartbeatMs?: number;
  /**
   * A write still waiting for 'drain' after this long means the client stopped reading: the response is
   * destroyed and onClientGone listeners hear `stalled`. Unset: a write waits as long as the connection lives.
   */
  stalledTimeoutMs?: number;
}

/**
 * One SSE response: headers, heartbeat, backpressure, client-gone detection and the end. Callers write
 * text already framed (`data: …\n\n`); what an event becomes is theirs, everything about the socket is here.
 */
export interface SseWriter {
  readonly opened: boolean;
  /** True once the client is gone or end() was called: later writes do nothing. */
  readonly closed: boolean;
  /** Aborted when the client goes away (closed or stalled) before end(). */
  readonly signal: AbortSignal;
  /** Sends the status line and headers and starts the heartbeat; later calls do nothing. */
  open(): void;
  /**
   * Writes framed text (opening the stream first if needed). Returns a promise only while the socket
   * buffer is full: it resolves on 'drain', or once the client is gone. Await it before the next write.
   */
  write(chunk: string | Buffer): Promise<void> | undefined;
  /** Writes `last` (an error event, `[DONE]`) if the client is still there, then ends the response. */
  end(last?: string): void;
  /** Calls `listener` once if the client goes away before end() (at once if it already has). */
  onClientGone(listener: (reason: ClientGoneReason) => void): void;
}

export const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  // nginx buffers proxied responses unless told not to; a buffered stream arrives all at once.
  'x-accel-buffering': 'no',
  connection: 'keep-alive',
} as const;

const HEARTBEAT = ': ping\n\n';

/** The default of server.stalled_client_timeout_seconds, for streams whose routes are not given theirs. */
export const DEFAULT_STALLED_TIMEOUT_MS = 30_000;

export function createSseWriter(res: ServerResponse, options: SseWriterOptions = {}): SseWriter {
  const aborted = new AbortController();
  const listeners: ((reason: ClientGoneReason) => void)[] = [];
  let opened = false;
  let ended = false;
  let goneReason: ClientGoneReason | undefined;
  let stalled = false;
  let heartbeat: NodeJS.Timeout | undefined;
  let draining: Promise<void> | undefined;
  const gone = () => ended || res.destroyed || res.writableEnded;

  // A write racing a closed socket must not become an unhandled 'error' event.
  res.on('error', () => undefined);
  res.on('close', () => {
    clearInterval(heartbeat);
    if (res.writableFinished || ended) return;
    goneReason = stalled ? 'stalled' : 'closed';
    aborted.abort();
    for (const listener of listeners.splice(0)) listener(goneReason);
  });

  // One wait per full buffer, shared by every write that finds it full; ends the response if it outlasts the stall timeout.
  const waitForDrain = (): Promise<void> => {
    draining ??= new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        res.off('drain', done);
        res.off('close', done);
        draining = undefined;
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
      if (options.stalledTimeoutMs !== undefined) {
        timer = setTimeout(() => {
          stalled = true;
          res.destroy();
        }, options.stalledTimeoutMs);
        timer.unref();
      }
    });
    return draining;
  };

  const open = () => {
    if (opened) return;
    opened = true;
    options.beforeOpen?.();
    const headers = Object.fromEntries(
      Object.entries(options.headers?.() ?? {}).filter(([, value]) => value !== undefined),
    );
    res.writeHead(200, { ...headers, ...SSE_HEADERS });
    res.flushHeaders();
    if (options.heartbeatMs) {
      // No ping is queued behind a full buffer: the client is not reading what is already there.
      heartbeat = setInterval(() => {
        if (!draining && !gone()) res.write(HEARTBEAT);
      }, options.heartbeatMs);
      heartbeat.unref();
    }
  };

  const write = (chunk: string | Buffer): Promise<void> | undefined => {
    if (gone()) return undefined;
    open();
    if (draining) return draining.then(() => write(chunk));
    return res.write(chunk) ? undefined : waitForDrain();
  };

  return {
    get opened() {
      return opened;
    },
    get closed() {
      return gone();
    },
    signal: aborted.signal,
    open,
    write,
    end(last) {
      clearInterval(heartbeat);
      if (gone()) return;
      ended = true;
      open();
      res.end(last);
    },
    onClientGone(listener) {
      if (goneReason) listener(goneReason);
      else listeners.push(listener);
    },
  };
}

/** The SSE writer of a Fastify reply: the reply is hijacked when the stream opens, keeping the headers decided so far. */
export function createReplySseWriter(
  reply: FastifyReply,
  options: Omit<SseWriterOptions, 'beforeOpen' | 'headers'> & { headers?: () => SseHeaders } = {},
): SseWriter {
  return createSseWriter(reply.raw, {
    ...options,
    beforeOpen: () => {
      reply.hijack();
    },
    // The caller's headers first: they may still set reply headers (the overhead header is timed at the first byte).
    headers: () => {
      const extra = options.headers?.();
      return { ...reply.getHeaders(), ...extra };
    },
  });
}
