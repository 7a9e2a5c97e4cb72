import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatSseEvents } from '../../../src/gateway/agui/format-sse-events.js';
import { RunFrame } from '../../../src/gateway/agui/run-frame.js';
import { createSseWriter } from '../../../src/gateway/agui/sse-writer.js';

/** The slice of a ServerResponse the writer uses, recording what it wrote. */
class FakeResponse extends EventEmitter {
  status = 0;
  headers: Record<string, unknown> = {};
  chunks: string[] = [];
  destroyed = false;
  writableEnded = false;
  writableFinished = false;
  writeHead(status: number, headers: Record<string, unknown>) {
    this.status = status;
    this.headers = headers;
    return this;
  }
  flushHeaders() {}
  write(chunk: string) {
    this.chunks.push(chunk);
    return true;
  }
  end() {
    this.writableEnded = true;
    this.writableFinished = true;
    this.emit('close');
  }
}

afterEach(() => {
  vi.useRealTimers();
});

describe('formatSseEvents', () => {
  it('writes event and data lines with LF framing, and the id only on the last event of a group', () => {
    const text = formatSseEvents(
      [
        { type: 'TEXT_MESSAGE_END', messageId: 'm' },
        { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
      ] as never,
      7,
    );
    expect(text).toBe(
      'event: TEXT_MESSAGE_END\ndata: {"type":"TEXT_MESSAGE_END","messageId":"m"}\n\n' +
        'id: 7\nevent: RUN_FINISHED\ndata: {"type":"RUN_FINISHED","threadId":"t","runId":"r"}\n\n',
    );
    expect(text).not.toContain('\r');
  });
});

describe('createSseWriter', () => {
  it('sends the stream headers and a ": ping" comment every heartbeat until the end', async () => {
    vi.useFakeTimers();
    const res = new FakeResponse();
    const sse = createSseWriter(res as unknown as ServerResponse, {
      heartbeatMs: 15_000,
      headers: () => ({ 'x-run-id': 'run_1', skipped: undefined }),
    });
    sse.open();
    expect(res.status).toBe(200);
    expect(res.headers).toEqual({
      'x-run-id': 'run_1',
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    vi.advanceTimersByTime(30_000);
    expect(res.chunks).toEqual([': ping\n\n', ': ping\n\n']);
    sse.end();
    vi.advanceTimersByTime(30_000);
    expect(res.chunks).toHaveLength(2);
  });

  it('tells when the client went away and then writes nothing', async () => {
    const res = new FakeResponse();
    const sse = createSseWriter(res as unknown as ServerResponse, { heartbeatMs: 15_000 });
    const gone = vi.fn();
    sse.onClientGone(gone);
    sse.open();
    res.destroyed = true;
    res.emit('close');
    expect(gone).toHaveBeenCalledOnce();
    expect(sse.closed).toBe(true);
    expect(sse.write(new RunFrame([{ type: 'text_delta', delta: 'x' }], 1))).toBeUndefined();
    expect(res.chunks).toEqual([]);
  });
});
