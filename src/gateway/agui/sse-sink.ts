import type { FastifyReply } from 'fastify';
import { createReplySseWriter, type SseWriter } from '../../http/index.js';
import type { AguiRouteSettings } from './agui-routes-options.js';
import type { EventSink } from './stream-run-events.js';

/** An AG-UI stream over SSE: the frame's SSE block (`id:` + `event:` + `data:`, LF framing) in one write. */
export function createSseSink(sse: SseWriter): EventSink {
  return {
    write: (frame) => (frame.events.length > 0 ? sse.write(frame.sse) : undefined),
    get closed() {
      return sse.closed;
    },
  };
}

/** The SSE writer of an AG-UI route: its heartbeat and stall timeout from the plugin's settings. */
export function createAguiSseWriter(
  reply: FastifyReply,
  settings: Pick<AguiRouteSettings, 'heartbeatMs' | 'stalledTimeoutMs'>,
): SseWriter {
  return createReplySseWriter(reply, {
    heartbeatMs: settings.heartbeatMs,
    stalledTimeoutMs: settings.stalledTimeoutMs,
  });
}
