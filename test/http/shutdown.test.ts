import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createServer } from '../../src/http/index.js';
import { LogCapture } from '../support/app.js';

describe('draining', () => {
  it('finishes a request in flight and turns away, in the usual error shape, one that arrives during close', async () => {
    const app = await createServer({
      logLevel: 'silent',
      bodyLimitBytes: 1024,
      corsOrigins: [],
      version: 'test',
      logStream: new LogCapture(),
    });
    let release!: () => void;
    let started!: () => void;
    const slowStarted = new Promise<void>((resolve) => (started = resolve));
    app.get('/slow', async () => {
      started();
      await new Promise<void>((resolve) => (release = resolve));
      return { done: true };
    });
    app.get('/fast', async () => ({ fast: true }));
    let draining!: () => void;
    const closeStarted = new Promise<void>((resolve) => (draining = resolve));
    app.addHook('preClose', async () => draining());
    let answering!: () => void;
    const secondAnswered = new Promise<void>((resolve) => (answering = resolve));
    app.addHook('onSend', async (request) => {
      if (request.url === '/fast') answering();
    });
    const url = new URL(await app.listen({ host: '127.0.0.1', port: 0 }));

    // One keep-alive connection: the slow request keeps it busy, so closing does not reap it, and the
    // second request arrives on it after close() began.
    const socket = connect(Number(url.port), '127.0.0.1');
    let raw = '';
    socket.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await slowStarted;

    const closed = app.close();
    await closeStarted;
    socket.write('GET /fast HTTP/1.1\r\nHost: x\r\n\r\n');
    await secondAnswered;
    release();
    await closed;
    await ended;

    const responses = raw.split(/(?=HTTP\/1\.1 )/);
    expect(responses).toHaveLength(2);
    expect(responses[0]).toMatch(/^HTTP\/1\.1 200 /);
    expect(responses[0]).toContain('{"done":true}');
    expect(responses[1]).toMatch(/^HTTP\/1\.1 503 /);
    expect(responses[1].toLowerCase()).toContain('connection: close');
    const body = JSON.parse(responses[1].slice(responses[1].indexOf('\r\n\r\n') + 4)) as unknown;
    expect(body).toEqual({
      error: {
        type: 'unavailable_error',
        code: 'shutting_down',
        message: 'The server is shutting down; retry the request',
      },
    });
  });
});
