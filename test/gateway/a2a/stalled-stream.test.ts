import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_API_KEY } from '../../support/app.js';
import { createFirehoseStats } from '../../support/fake-upstream.js';
import { a2aYaml, startA2aGateway, type A2aGateway } from './a2a-harness.js';

/** 8 MiB: far more than the socket buffers between the gateway and the client hold, under the 10 MiB output cap. */
const CHUNKS = 64;
const CHUNK_BYTES = 128 * 1024;
/**
 * 8 MiB pass through the gateway, the A2A SDK's task copies and the store: 2-3 s alone, 25 s under a load of 17 on
 * two cores. Every wait below is on an event or on state, so these bounds only need to be far above that; so does
 * the model call's deadline (the harness's 10 s would fail the run under load).
 */
const SLOW = { timeout: 30_000 };
const yaml = a2aYaml().replace(/timeout_ms: \d+/, 'timeout_ms: 120000');

describe('an A2A streaming client that stops reading', () => {
  let gateway: A2aGateway;
  beforeAll(async () => {
    gateway = await startA2aGateway({ yaml: `${yaml}\nserver:\n  stalled_client_timeout_seconds: 0.5\n` });
  });
  afterAll(() => gateway.stop());

  it('is disconnected after the stall timeout while its task goes on to the end', async () => {
    const stats = createFirehoseStats();
    gateway.upstream.enqueue({ kind: 'firehose', chunks: CHUNKS, chunkBytes: CHUNK_BYTES, stats });
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendStreamingMessage',
      params: { message: { messageId: 'm-stall', role: 'ROLE_USER', parts: [{ text: 'everything' }] } },
    });
    const socket = connect(Number(new URL(gateway.app.url).port), '127.0.0.1');
    socket.on('error', () => undefined);
    socket.pause();
    socket.write(
      `POST /a2a/helper HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${TEST_API_KEY}\r\na2a-version: 1.0\r\n` +
        `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await vi.waitFor(() => expect(gateway.app.runs.active()).toHaveLength(1), { ...SLOW, interval: 10 });
    const run = gateway.app.runs.active()[0];
    // The run is not held back by this client (the SDK queues for it), and not cancelled when it is dropped.
    expect(await run.result).toMatchObject({ status: 'completed' });
    expect(stats.done).toBe(true);
    // The stall timeout destroys the connection on the server's side...
    const connections = () =>
      new Promise<number>((resolve, reject) =>
        gateway.app.server.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      );
    await vi.waitFor(async () => expect(await connections()).toBe(0), { ...SLOW, interval: 20 });
    // ...so what the client reads once it reads again stops short of the end.
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.resume();
    await once(socket, 'close');
    expect(received.length).toBeGreaterThan(0);
    expect(received.length).toBeLessThan(CHUNKS * CHUNK_BYTES);
    expect(received).not.toContain('TASK_STATE_COMPLETED');
    // The task itself went on to its end (its executor stores that end just after the run's result).
    const stateOfTask = async () => {
      const read = await fetch(`${gateway.app.url}/a2a/helper`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_API_KEY}`, 'a2a-version': '1.0', 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ListTasks', params: {} }),
      });
      return ((await read.json()) as { result: { tasks: { status: { state: string } }[] } }).result.tasks[0].status
        .state;
    };
    await vi.waitFor(async () => expect(await stateOfTask()).toBe('TASK_STATE_COMPLETED'), SLOW);
  }, 120_000);
});
