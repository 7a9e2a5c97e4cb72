import { EventType } from '@ag-ui/core';
import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSseWriter, type ClientGoneReason } from '../../../src/http/index.js';
import { RunFrame } from '../../../src/gateway/agui/run-frame.js';
import { createSseSink } from '../../../src/gateway/agui/sse-sink.js';

/** 64 MB: far more than the kernel buffers between a server and a client that reads nothing. */
const MAX_WRITES = 1000;

/** A text event of `bytes` characters, as the frame cache hands it to every subscriber. */
function textFrame(seq: number, bytes = 16): RunFrame {
  return new RunFrame(
    [{ type: EventType.TEXT_MESSAGE_CONTENT, messageId: 'msg_1', delta: String(seq).padEnd(bytes, '.') }],
    seq,
  );
}

describe('the AG-UI SSE sink', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  async function serve(handler: (res: ServerResponse) => void): Promise<string> {
    server = createServer((_request, res) => handler(res));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('writes each frame as its own HTTP chunk, in order with the writer’s own writes, readable by any client', async () => {
    const url = await serve((res) => {
      const sse = createSseWriter(res);
      const sink = createSseSink(sse, res);
      sse.open();
      expect(sink.write(textFrame(1))).toBeUndefined();
      // A heartbeat-like write through the writer between two frames keeps its place.
      void sse.write(': ping\n\n');
      expect(sink.write(textFrame(2))).toBeUndefined();
      sse.end();
    });
    const response = await fetch(url);
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    expect(await response.text()).toBe(`${textFrame(1).sse.toString()}: ping\n\n${textFrame(2).sse.toString()}`);
  });

  it('waits for a client that stops reading and drops it after the stall timeout, as the SSE writer does', async () => {
    let settle!: (outcome: { writes: number; reason: ClientGoneReason; writeAfterGone: unknown }) => void;
    const outcome = new Promise<Parameters<typeof settle>[0]>((resolve) => (settle = resolve));
    const url = await serve((res) => {
      const sse = createSseWriter(res, { stalledTimeoutMs: 300 });
      const sink = createSseSink(sse, res);
      sse.open();
      let writes = 0;
      let behind: Promise<void> | undefined;
      // 64 KiB frames until one has to wait: the kernel's buffers are full (a few MB on loopback).
      while (!behind && writes < MAX_WRITES) behind = sink.write(textFrame(++writes, 64 * 1024));
      // The waiting write resolves once the client is gone, and later writes do nothing.
      sse.onClientGone((reason) => {
        void behind?.then(() => settle({ writes, reason, writeAfterGone: sink.write(textFrame(writes + 1)) }));
      });
    });
    const client = connect(Number(new URL(url).port), '127.0.0.1');
    client.on('error', () => undefined);
    client.pause();
    client.write('GET / HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
    const { writes, reason, writeAfterGone } = await outcome;
    expect(writes).toBeLessThan(MAX_WRITES);
    expect(reason).toBe('stalled');
    expect(writeAfterGone).toBeUndefined();
    client.destroy();
  });
});
