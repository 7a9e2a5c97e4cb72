import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSseWriter, type ClientGoneReason, type SseWriter, type SseWriterOptions } from '../../src/http/index.js';

/** 64 KiB of SSE per write: a few hundred of them fill any loopback socket's buffers. */
const BLOCK = `data: ${'x'.repeat(64 * 1024)}\n\n`;
/** 32 MiB: more than the kernel buffers on both ends hold (a writer that ignored backpressure would write it all). */
const MAX_BLOCKS = 512;

interface Exchange {
  sse: SseWriter;
  res: ServerResponse;
  /** The client's side of the response. */
  response: IncomingMessage;
}

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A real server whose handler hands its response to a writer, and a real client request to it. */
async function openStream(options: SseWriterOptions = {}): Promise<Exchange> {
  const handled = new Promise<{ sse: SseWriter; res: ServerResponse }>((resolve) => {
    server = createServer((_req, res) => {
      const sse = createSseWriter(res, options);
      sse.open();
      resolve({ sse, res });
    });
  });
  server!.listen(0, '127.0.0.1');
  await once(server!, 'listening');
  const { port } = server!.address() as AddressInfo;
  const req = request({ port, host: '127.0.0.1', path: '/', method: 'GET' });
  req.on('error', () => undefined);
  req.end();
  const [response] = (await once(req, 'response')) as [IncomingMessage];
  response.pause();
  return { ...(await handled), response };
}

/** Reads the client's side to its end. */
async function readAll(response: IncomingMessage): Promise<string> {
  response.setEncoding('utf8');
  let text = '';
  response.on('data', (chunk: string) => (text += chunk));
  response.resume();
  await once(response, 'end');
  return text;
}

describe('the SSE writer', () => {
  it('sends the stream headers, with those already decided, and a ": ping" comment every heartbeat', async () => {
    const { sse, response } = await openStream({
      heartbeatMs: 10,
      headers: () => ({ 'x-run-id': 'run_1', skipped: undefined }),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({
      'x-run-id': 'run_1',
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    });
    expect(response.headers).not.toHaveProperty('skipped');
    response.setEncoding('utf8');
    let text = '';
    response.on('data', (chunk: string) => (text += chunk));
    response.resume();
    while (text.split(': ping\n\n').length < 3) await once(response, 'data');
    sse.end();
    await once(response, 'end');
    expect(text.replaceAll(': ping\n\n', '')).toBe('');
  });

  it('makes a writer wait while its client does not read, and lets it go on once the client reads', async () => {
    const { sse, response } = await openStream();
    let blocks = 0;
    let waiting = false;
    const producer = (async () => {
      while (blocks < MAX_BLOCKS) {
        const wait = sse.write(BLOCK);
        blocks += 1;
        if (!wait) continue;
        waiting = true;
        await wait;
        waiting = false;
      }
      sse.end('data: [DONE]\n\n');
    })();
    await vi.waitFor(() => expect(waiting).toBe(true), { timeout: 10_000, interval: 5 });
    expect(blocks).toBeLessThan(MAX_BLOCKS);
    expect(sse.closed).toBe(false);

    const text = await readAll(response);
    await producer;
    expect(text.split(BLOCK)).toHaveLength(MAX_BLOCKS + 1);
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('gives up a client that reads nothing for the stall timeout, and says so', async () => {
    const { sse } = await openStream({ stalledTimeoutMs: 100 });
    const gone = new Promise<ClientGoneReason>((resolve) => sse.onClientGone(resolve));
    // Brief waits come and go while the buffers fill; the one that never ends is given up.
    for (let blocks = 0; blocks < MAX_BLOCKS && !sse.closed; blocks += 1) await sse.write(BLOCK);
    expect(await gone).toBe('stalled');
    expect(sse.closed).toBe(true);
    expect(sse.signal.aborted).toBe(true);
    expect(sse.write(BLOCK)).toBeUndefined();
  });

  it('stops the producer when the client goes away', async () => {
    const { sse, response } = await openStream();
    const gone = new Promise<ClientGoneReason>((resolve) => sse.onClientGone(resolve));
    let written = 0;
    const producer = (async () => {
      while (!sse.closed) {
        await sse.write('data: tick\n\n');
        written += 1;
        // Lets the client's close arrive between two writes, as a real producer awaiting its source would.
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    response.resume();
    await once(response, 'data');
    response.destroy();
    await producer;
    expect(await gone).toBe('closed');
    expect(sse.signal.aborted).toBe(true);
    const after = written;
    expect(sse.write('data: late\n\n')).toBeUndefined();
    expect(written).toBe(after);
    // A listener added after the client left hears it at once.
    await expect(new Promise((resolve) => sse.onClientGone(resolve))).resolves.toBe('closed');
  });

  it('ends with an error event the client receives before the end, and no listener hears of a client gone', async () => {
    const { sse, response } = await openStream({ heartbeatMs: 60_000 });
    let gone = false;
    sse.onClientGone(() => (gone = true));
    const reading = readAll(response);
    await sse.write('data: {"n":1}\n\n');
    sse.end('event: error\ndata: {"error":{"code":"upstream_error"}}\n\n');
    expect(await reading).toBe('data: {"n":1}\n\nevent: error\ndata: {"error":{"code":"upstream_error"}}\n\n');
    expect(sse.closed).toBe(true);
    expect(gone).toBe(false);
    expect(sse.write('data: after the end\n\n')).toBeUndefined();
    sse.end();
  });
});
