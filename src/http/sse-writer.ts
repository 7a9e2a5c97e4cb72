import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { AppError } from '../errors.js';
import { watchClientBacklog } from './client-backlog/index.js';
import type { CredentialWatch } from './credential-watch.js';

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
  /**
   * For a stream that holds a run back: a write also waits while more than this many bytes written are not yet
   * acknowledged by the client's TCP stack (the kernel's send queue takes MBs of a client that stopped reading;
   * http/client-backlog). The wait counts toward the stall timeout like a wait for 'drain'. Unset: only Node's
   * buffer counts.
   */
  backlogBytes?: number;
  /**
   * Watches the credential that opened the stream, from when it opens (createReplySseWriter takes the request's,
   * set by the auth hooks). When it lapses (a JWT's exp, an access token expired, revoked or deleted) `signal`
   * aborts with the error, `lapseEvent(error)` is written as the last event and the response ends. The stream's
   * run, if it has one, is not cancelled: a run already admitted may finish.
   */
  credential?: CredentialWatch;
  /** The protocol's error event for a lapsed credential. Default: `event: error`, data `{"error":{type,code,message}}`. */
  lapseEvent?: (error: AppError) => string | Buffer;
}

/**
 * One SSE response: headers, heartbeat, backpressure, client-gone detection and the end. Callers write
 * text already framed (`data: …\n\n`); what an event becomes is theirs, everything about the socket is here.
 */
export interface SseWriter {
  readonly opened: boolean;
  /** True once the client is gone or end() was called: later writes do nothing. */
  readonly closed: boolean;
  /**
   * Aborted when the stream stops before end(): the client went away (closed or stalled), or the credential
   * that opened it lapsed (the reason is then that AppError, after which the writer ended the response).
   */
  readonly signal: AbortSignal;
  /** Sends the status line and headers and starts the heartbeat; later calls do nothing. */
  open(): void;
  /**
   * Writes framed text (opening the stream first if needed). Returns a promise only while the socket
   * buffer is full (or, with `backlogBytes`, the client is that far behind): it resolves on 'drain' (once the
   * client caught up), or once the client is gone. Await it before the next write.
   */
  write(chunk: string | Buffer): Promise<void> | undefined;
  /** What write() would wait for after bytes written to the socket past this writer; undefined: nothing. */
  settle(): Promise<void> | undefined;
  /** Writes `last` (an error event, `[DONE]`) if the client is still there, then ends the response. */
  end(last?: string | Buffer): void;
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

/** The default last event of a stream whose credential lapsed. */
export function formatSseErrorEvent(error: AppError): string {
  return `event: error\ndata: ${JSON.stringify({ error: { type: error.type, code: error.code, message: error.message } })}\n\n`;
}

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
  let backlog: ReturnType<typeof watchClientBacklog> | undefined;
  let stopWatch: (() => void) | undefined;
  const gone = () => ended || res.destroyed || res.writableEnded;

  // A write racing a closed socket must not become an unhandled 'error' event.
  res.on('error', () => undefined);
  res.on('close', () => {
    clearInterval(heartbeat);
    stopWatch?.();
    if (res.writableFinished || ended) return;
    goneReason = stalled ? 'stalled' : 'closed';
    aborted.abort();
    for (const listener of listeners.splice(0)) listener(goneReason);
  });

  // One wait at a time, shared by every write that finds the client behind: the socket's 'drain', or the client
  // acknowledging its backlog. It ends the response if it outlasts the stall timeout.
  const waitFor = (caughtUp: (done: () => void) => () => void): Promise<void> => {
    draining ??= new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      let stop: (() => void) | undefined;
      let finished = false;
      const done = () => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        stop?.();
        res.off('close', done);
        draining = undefined;
        resolve();
      };
      res.on('close', done);
      stop = caughtUp(done);
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
  const waitForDrain = () =>
    waitFor((done) => {
      res.on('drain', done);
      return () => res.off('drain', done);
    });
  const settle = (): Promise<void> | undefined => {
    if (draining) return draining;
    const behind = backlog?.settled();
    if (!behind) return undefined;
    return waitFor((done) => {
      void behind.then(done);
      return () => undefined;
    });
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
    if (options.backlogBytes !== undefined && res.socket)
      backlog = watchClientBacklog(res.socket, options.backlogBytes);
    if (options.heartbeatMs) {
      // No ping is queued behind a full buffer: the client is not reading what is already there.
      heartbeat = setInterval(() => {
        if (!draining && !gone()) res.write(HEARTBEAT);
      }, options.heartbeatMs);
      heartbeat.unref();
    }
    stopWatch = options.credential?.((error) => {
      if (gone()) return;
      aborted.abort(error);
      end((options.lapseEvent ?? formatSseErrorEvent)(error));
    });
  };

  const write = (chunk: string | Buffer): Promise<void> | undefined => {
    if (gone()) return undefined;
    open();
    if (draining) return draining.then(() => write(chunk));
    // After 'drain' the kernel may still hold more than the backlog allows: Node's buffer is only its first part.
    return res.write(chunk) ? settle() : waitForDrain().then(settle);
  };

  const end = (last?: string | Buffer) => {
    clearInterval(heartbeat);
    stopWatch?.();
    if (gone()) return;
    ended = true;
    open();
    res.end(last);
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
    settle,
    end,
    onClientGone(listener) {
      if (goneReason) listener(goneReason);
      else listeners.push(listener);
    },
  };
}

/**
 * The SSE writer of a Fastify reply: the reply is hijacked when the stream opens, keeping the headers decided so
 * far. The stream ends when the request's credential lapses (`credential`, from the auth hooks).
 */
export function createReplySseWriter(
  reply: FastifyReply,
  options: Omit<SseWriterOptions, 'beforeOpen' | 'headers' | 'credential'> & { headers?: () => SseHeaders } = {},
): SseWriter {
  const request = reply.request;
  return createSseWriter(reply.raw, {
    ...options,
    credential: request.watchCredential && ((onLapse) => request.watchCredential!(onLapse)),
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
