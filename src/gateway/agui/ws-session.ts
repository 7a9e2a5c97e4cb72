import type { Socket } from 'node:net';
import type { TraceSpan } from '../../telemetry/index.js';
import type { RawData, WebSocket } from 'ws';
import {
  CLIENT_BACKLOG_BYTES,
  watchClientBacklog,
  type ClientBacklog,
  type CredentialWatch,
  type RunScope,
} from '../../http/index.js';
import { cancelledError, CLIENT_CLOSED, CLIENT_STALLED, type RunHandle, type RunService } from '../../agents/index.js';
import { AppError, isAppError, ValidationError } from '../../errors.js';
import { createId } from '../../ids.js';
import type { StreamFormat } from './agui-event.js';
import { clientFrame, type ClientFrame } from './agui.schema.js';
import type { RunFrameCache } from './run-frame-cache.js';
import { streamRunEvents, type EventSink } from './stream-run-events.js';
import type { Logger } from '../../logger.js';

export interface WsSessionOptions {
  agentName: string;
  format: StreamFormat;
  runs: RunService;
  /** The session the socket continues; a new one per socket when absent. */
  sessionId?: string;
  /** Who opened the socket (auth ownerOf): its sessions are theirs. */
  owner?: string;
  tokenId?: string;
  tokenMaxCostUsd?: number | null;
  /** A ping frame this often; a socket that did not answer the previous one is dropped. */
  heartbeatMs: number;
  /** A socket that takes none of its queued frames for this long is dropped, and its run cancelled (`client_stalled`). */
  stalledTimeoutMs?: number;
  /** The run's frames, shared with any SSE stream attached to the same run. */
  frames: RunFrameCache;
  log: Pick<Logger, 'error'>;
  /** The upgrade request's span: the socket's runs are its children. */
  trace?: TraceSpan;
  /**
   * The TCP connection under the WebSocket: a write also waits while its client has not acknowledged more than
   * CLIENT_BACKLOG_BYTES (the kernel takes MBs of a client that stopped reading; http/client-backlog).
   */
  connection?: Socket;
  /** Checks the socket's credential and limits again for each run (as a new request would be); throws when refused. */
  admit?: () => Promise<RunScope>;
  /** With no run under way and no frame from the client for this long, the socket is closed (`idle_timeout`). */
  idleTimeoutMs?: number;
  /** Tells when the credential that opened the socket lapses: the socket ends then (error frame, close 1008). */
  credential?: CredentialWatch;
}

/** The close code of a socket whose credential no longer holds, or that one principal has too many of (RFC 6455 7.4.1). */
export const WS_POLICY_VIOLATION = 1008;

/** The error frame a bad frame (or a run that cannot start) gets: the socket stays open. */
export function createErrorFrame(error: AppError): {
  type: 'error';
  error: { type: string; code: string; message: string };
} {
  return { type: 'error', error: { type: error.type, code: error.code, message: error.message } };
}

/**
 * One WebSocket conversation with an agent: each `message` frame starts a run in the socket's session
 * and its events go out as one JSON text frame each; `cancel` cancels the run under way. Closing the
 * socket cancels it too, as leaving an SSE stream does.
 */
export function serveWsSession(socket: WebSocket, options: WsSessionOptions): void {
  let sessionId = options.sessionId ?? createId('ses');
  // An id made up for this socket: its first run creates the session, which counts as active (admin
  // sessions, status, metrics) from the socket's second run on, as for any session its caller continues.
  let named = options.sessionId !== undefined;
  let newSession = !named;
  let current: RunHandle | undefined;
  let starting = false;
  const send = (frame: object) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
  };
  let stalled = false;
  const backlog = options.connection && watchClientBacklog(options.connection, CLIENT_BACKLOG_BYTES);
  const sink = createWsSink(socket, options.stalledTimeoutMs, backlog, () => {
    stalled = true;
    socket.terminate();
  });

  const startRun = async (content: string) => {
    if (current || starting)
      throw new AppError({
        code: 'run_in_progress',
        message: 'A run is already under way on this socket; wait for its end or send {"type":"cancel"}',
      });
    starting = true;
    try {
      const scope = await admit();
      if (!scope) return;
      current = await scope(() =>
        options.runs.start({
          agentName: options.agentName,
          messages: [{ role: 'user', content }],
          source: 'agui',
          sessionId,
          newSession,
          sessionNamed: named,
          owner: options.owner,
          tokenId: options.tokenId,
          parentSpan: options.trace,
          tokenMaxCostUsd: options.tokenMaxCostUsd,
        }),
      );
    } finally {
      starting = false;
      newSession = false;
    }
    const run = current;
    if (socket.readyState !== socket.OPEN) run.control.cancel(CLIENT_CLOSED());
    await streamRunEvents(run, options.frames.open({ runId: run.runId, format: options.format }), sink, {
      beforeTerminal: () => run.result,
    });
    // The stream stops as soon as the socket is closing, before its 'close' event: the run is cancelled here,
    // or it would go on unheld (no reader) to its end.
    if (socket.readyState !== socket.OPEN && !lapsed) run.control.cancel(stalled ? CLIENT_STALLED() : CLIENT_CLOSED());
    current = undefined;
    idle.arm();
  };

  // A credential that lapses while the socket is open (JWT exp, token expires_at, revoked or deleted, seen within
  // auth.stream_recheck_seconds) ends it at once, as it would refuse its next run. The run under way is not
  // cancelled (it was admitted; an SSE stream's lapse leaves its run too): it goes on unwatched to its end.
  let lapsed = false;
  const unwatch = options.credential?.((error) => {
    lapsed = true;
    send(createErrorFrame(error));
    socket.close(WS_POLICY_VIOLATION, error.code);
  });

  /** A credential that no longer holds ends the socket (error frame, then close); a rate limit only refuses the run. */
  const admit = async (): Promise<RunScope | undefined> => {
    if (!options.admit) return (start) => start();
    try {
      return await options.admit();
    } catch (error) {
      if (!isAppError(error) || (error.status !== 401 && error.status !== 403)) throw error;
      send(createErrorFrame(error));
      socket.close(WS_POLICY_VIOLATION, error.code);
      return undefined;
    }
  };
  const idle = createIdleTimer(
    options.idleTimeoutMs,
    () => current !== undefined || starting,
    () => socket.close(1000, 'idle_timeout'),
  );

  const handle = async (frame: ClientFrame) => {
    switch (frame.type) {
      case 'message':
        if (frame.session_id) {
          sessionId = frame.session_id;
          named = true;
          newSession = false;
        }
        return startRun(frame.content);
      case 'cancel':
        if (!current)
          throw new AppError({
            code: 'no_active_run',
            message: 'No run is under way on this socket',
          });
        return current.control.cancel(cancelledError('The client cancelled the run'));
      case 'ping':
        return send({ type: 'pong' });
    }
  };

  socket.on('message', (data, isBinary) => {
    idle.arm();
    let frame: ClientFrame;
    try {
      frame = parseFrame(data, isBinary);
    } catch (error) {
      return send(createErrorFrame(error as AppError));
    }
    handle(frame).catch((error: unknown) => {
      if (!isAppError(error)) options.log.error({ err: error }, 'websocket frame failed');
      send(
        createErrorFrame(
          isAppError(error)
            ? error
            : new AppError({
                code: 'internal_error',
                message: 'Internal server error',
              }),
        ),
      );
    });
  });

  let alive = true;
  let frames = sink.frames;
  socket.on('pong', () => (alive = true));
  const keepAlive = setInterval(() => {
    // A ping queued behind frames sent since the last one may not have reached the client yet, and one that
    // stopped reading cannot answer at all: while frames go out, the stall timeout decides, not the heartbeat.
    const busy = sink.waiting || sink.frames !== frames;
    frames = sink.frames;
    if (busy) {
      alive = true;
      return;
    }
    if (!alive) return socket.terminate();
    alive = false;
    socket.ping();
  }, options.heartbeatMs);
  keepAlive.unref();
  socket.on('close', () => {
    clearInterval(keepAlive);
    idle.stop();
    unwatch?.();
    if (!lapsed) current?.control.cancel(stalled ? CLIENT_STALLED() : CLIENT_CLOSED());
  });
}

/** Calls `onIdle` once `ms` passed since the last arm() without `busy()`; while busy it waits another `ms`. */
function createIdleTimer(
  ms: number | undefined,
  busy: () => boolean,
  onIdle: () => void,
): { arm(): void; stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    if (ms === undefined) return;
    timer = setTimeout(() => (busy() ? arm() : onIdle()), ms);
    timer.unref();
  };
  arm();
  return { arm, stop: () => clearTimeout(timer) };
}

/** Past this many bytes queued on the socket, a write waits until its last frame was handed to the kernel. */
const WS_HIGH_WATER_BYTES = 64 * 1024;

/**
 * One text frame per event (the JSON text an SSE stream of the run sends as `data:` too). The socket's
 * queue is bounded: a write that leaves more than WS_HIGH_WATER_BYTES queued returns a promise, so the run
 * waits for a client that reads slowly; so does a write that leaves the client more than the backlog's limit
 * behind on acknowledgements. One that reads nothing for `stalledTimeoutMs` is given up.
 */
function createWsSink(
  socket: WebSocket,
  stalledTimeoutMs: number | undefined,
  backlog: ClientBacklog | undefined,
  onStalled: () => void,
): EventSink & { readonly waiting: boolean; readonly frames: number } {
  const open = () => socket.readyState === socket.OPEN;
  let waiting = false;
  let frames = 0;
  /** A wait that `start` ends by calling done (or the socket's close does); past the stall timeout the socket is given up. */
  const wait = (start: (done: () => void) => void) => {
    waiting = true;
    return new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      let finished = false;
      const done = () => {
        if (finished) return;
        finished = true;
        waiting = false;
        clearTimeout(timer);
        socket.off('close', done);
        resolve();
      };
      socket.on('close', done);
      if (stalledTimeoutMs !== undefined) {
        timer = setTimeout(onStalled, stalledTimeoutMs);
        timer.unref();
      }
      start(done);
    });
  };
  const caughtUp = (done: () => void) => {
    const behind = backlog?.settled();
    if (behind) void behind.then(done);
    else done();
  };
  return {
    write(frame) {
      const texts = frame.json;
      if (!open() || texts.length === 0) return undefined;
      frames += texts.length;
      for (const text of texts.slice(0, -1)) socket.send(text);
      const last = texts.at(-1)!;
      if (socket.bufferedAmount + last.length <= WS_HIGH_WATER_BYTES) {
        socket.send(last);
        return backlog?.settled() && wait(caughtUp);
      }
      // The send's callback comes once the frame left for the kernel, or with an error when the socket closed first.
      return wait((done) => socket.send(last, () => caughtUp(done)));
    },
    get closed() {
      return !open();
    },
    get waiting() {
      return waiting;
    },
    /** Frames sent so far. */
    get frames() {
      return frames;
    },
  };
}

function parseFrame(data: RawData, isBinary: boolean): ClientFrame {
  if (isBinary) throw new ValidationError('Frames must be JSON text, not binary', 'invalid_frame');
  let json: unknown;
  try {
    json = JSON.parse(rawText(data));
  } catch {
    throw new ValidationError('Frames must be JSON objects such as {"type":"message","content":"..."}', 'invalid_json');
  }
  const parsed = clientFrame.safeParse(json);
  if (!parsed.success)
    throw new ValidationError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || 'frame'}: ${issue.message}`).join('; '),
      'invalid_frame',
    );
  return parsed.data;
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}
