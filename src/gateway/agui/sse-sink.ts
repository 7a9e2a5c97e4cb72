import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { CLIENT_BACKLOG_BYTES, createReplySseWriter, type SseWriter } from '../../http/index.js';
import type { AguiRouteSettings } from './agui-routes-options.js';
import type { RunFramer } from './run-frame-cache.js';
import type { EventSink } from './stream-run-events.js';

const NOTHING = Buffer.alloc(0);

/**
 * An AG-UI stream over SSE: the frame's SSE block (`id:` + `event:` + `data:`, LF framing) in one write.
 *
 * With `res` (the response under the SSE writer), an open chunked response whose socket takes more goes the
 * short way: the frame's ready-made HTTP chunk straight onto the socket, one write (and one syscall, now)
 * per subscriber, where ServerResponse#write corks the socket, writes size, block and CRLF and uncorks on
 * the next tick. Everything still passes through the socket's own queue, so it stays in order with what the
 * SSE writer writes (headers, heartbeats, the end). When that write fills the socket's buffer, the SSE
 * writer's wait takes over through an empty write: the same drain, stall timeout and client-gone handling
 * as every other write; so does its wait for a client behind on acknowledgements (`backlogBytes`).
 */
export function createSseSink(sse: SseWriter, res?: ServerResponse): EventSink {
  return {
    write: (frame) => {
      if (frame.events.length === 0) return undefined;
      const socket = res?.socket;
      if (!res || !socket || !sse.opened || sse.closed || !res.chunkedEncoding || socket.writableNeedDrain)
        return sse.write(frame.sse);
      // The writer's backlog wait (a stream that holds its run) covers these bytes too.
      if (socket.write(frame.chunk)) return sse.settle();
      return sse.write(NOTHING);
    },
    get closed() {
      return sse.closed;
    },
  };
}

/**
 * The SSE writer of an AG-UI route: its heartbeat and stall timeout from the plugin's settings. A stream that
 * holds its run (`holdsRun`: the client that started it) also waits for the client's acknowledgements, so that
 * the run reads its upstream no further ahead of the client than its flow window plus CLIENT_BACKLOG_BYTES.
 * When the request's credential lapses, the stream ends with `framer`'s error frame naming the code
 * (`RUN_ERROR` / `run_error`); the run goes on.
 */
export function createAguiSseWriter(
  reply: FastifyReply,
  settings: Pick<AguiRouteSettings, 'heartbeatMs' | 'stalledTimeoutMs'>,
  framer: Pick<RunFramer, 'fail'>,
  holdsRun = false,
): SseWriter {
  return createReplySseWriter(reply, {
    heartbeatMs: settings.heartbeatMs,
    stalledTimeoutMs: settings.stalledTimeoutMs,
    ...(holdsRun && { backlogBytes: CLIENT_BACKLOG_BYTES }),
    lapseEvent: (error) => framer.fail({ code: error.code, message: error.message }).sse,
  });
}
