import { createServer, type ServerResponse } from 'node:http';
import { UPSTREAM_PROFILES } from '../bench-settings.js';
import { createChunkText, formatStamp, nowMs } from '../upstream/chunk-text.js';

/**
 * The floor under the AG-UI fan-out: plain `node:http` that holds SSE responses and writes each stamped
 * chunk, encoded once, to every one of them in a loop. No auth, no run, no bus, no upstream hop: what the
 * same subscribers on the same machine see when the server does nothing but the writes. The bench runs it
 * beside the gateway, so the gateway's lag is read against what one Node process writing to a thousand
 * sockets costs here.
 *
 * It answers the two requests the fan-out bench makes: `POST /agui/runs` (the owner's stream, which starts
 * the chunks after the slow profile's latency) and `GET /agui/ws?run_id=` (a subscriber).
 */
const { latencyMs, responseBytes, chunks, chunkIntervalMs } = UPSTREAM_PROFILES.slow;
const RUN_ID = 'run_floor';

const streams = new Set<ServerResponse>();
let started = false;

function open(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-run-id': RUN_ID });
  res.flushHeaders();
  streams.add(res);
  res.on('close', () => streams.delete(res));
}

async function emit(): Promise<void> {
  const pieces = createChunkText(responseBytes, chunks);
  await new Promise((resolve) => setTimeout(resolve, latencyMs));
  for (const piece of pieces) {
    const frame = Buffer.from(
      `data: ${JSON.stringify({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'msg_floor', delta: `${formatStamp(nowMs())}${piece}` })}\n\n`,
    );
    for (const res of streams) res.write(frame);
    await new Promise((resolve) => setTimeout(resolve, chunkIntervalMs));
  }
  for (const res of streams) res.end();
  started = false;
}

const server = createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/agui/runs') {
    req.resume();
    open(res);
    if (!started) {
      started = true;
      void emit();
    }
  } else if (req.method === 'GET' && req.url?.startsWith('/agui/ws')) open(res);
  else res.writeHead(404).end();
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`listening on http://127.0.0.1:${address.port}`);
});
// Our parent's IPC channel closes when the bench ends, even when it is killed.
process.on('disconnect', () => process.exit(0));
