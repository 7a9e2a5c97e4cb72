import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunHandle } from '../../src/agents/index.js';
import { startTestApp, TEST_API_KEY, type TestApp } from '../support/app.js';
import { createFirehoseStats, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { gatewayYaml } from './openai/openai-harness.js';

/** 64 MB in 16 KiB chunks: far more than every buffer between the upstream and the client holds. */
const CHUNKS = 4096;
const CHUNK_BYTES = 16 * 1024;

const ROUTES = [
  {
    name: 'POST /v1/chat/completions',
    path: '/v1/chat/completions',
    body: { model: 'helper', stream: true, messages: [{ role: 'user', content: 'everything' }] },
  },
  { name: 'POST /agui/runs', path: '/agui/runs', body: { agent_name: 'helper', message: 'everything' } },
];

/** A raw TCP client that sends its request and then never reads a byte of the answer. */
function openStalledClient(url: string, path: string, body: object): Socket {
  const { port } = new URL(url);
  const text = JSON.stringify(body);
  const socket = connect(Number(port), '127.0.0.1');
  socket.on('error', () => undefined);
  socket.pause();
  socket.write(
    `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${TEST_API_KEY}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
  );
  return socket;
}

async function startGateway(stalledSeconds: number): Promise<{ app: TestApp; upstream: FakeUpstream }> {
  const upstream = await startFakeUpstream();
  const yaml = `${gatewayYaml()}\nserver:\n  stalled_client_timeout_seconds: ${stalledSeconds}\n`;
  const app = await startTestApp(yaml, { env: { UPSTREAM_URL: upstream.url } });
  return { app, upstream };
}

/** A plain completion through the same gateway: many turns of its event loop, in which it would read any stream it reads. */
async function probe(app: TestApp): Promise<void> {
  const response = await fetch(`${app.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'other', messages: [{ role: 'user', content: 'probe' }] }),
  });
  expect(response.status).toBe(200);
  await response.text();
}

async function liveRun(app: TestApp): Promise<RunHandle> {
  await vi.waitFor(() => expect(app.runs.active()).toHaveLength(1), { timeout: 10_000, interval: 10 });
  return app.runs.active()[0];
}

describe.each(ROUTES)('a client of $name that stops reading', (route) => {
  describe('while it is stopped', () => {
    let gateway: { app: TestApp; upstream: FakeUpstream };
    beforeAll(async () => {
      gateway = await startGateway(600);
    });
    afterAll(async () => {
      await gateway.app.stop();
      await gateway.upstream.close();
    });

    it('holds the upstream back: the gateway stops reading it', async () => {
      const stats = createFirehoseStats();
      gateway.upstream.enqueue({ kind: 'firehose', chunks: CHUNKS, chunkBytes: CHUNK_BYTES, stats });
      const client = openStalledClient(gateway.app.url, route.path, route.body);
      const run = await liveRun(gateway.app);
      await vi.waitFor(() => expect(stats.waiting).toBe(true), { timeout: 20_000, interval: 10 });

      // Buffers fill for a while after the client stops; once they are full, nothing more leaves the upstream.
      let before = -1;
      for (let attempt = 0; attempt < 20 && before !== stats.written; attempt += 1) {
        before = stats.written;
        await probe(gateway.app);
      }
      expect(stats.written).toBe(before);
      expect(stats.waiting).toBe(true);
      expect(stats.done).toBe(false);
      expect(stats.written).toBeLessThan(CHUNKS / 4);

      client.destroy();
      expect(await run.result).toMatchObject({ status: 'cancelled', error: { code: 'client_closed' } });
    });
  });

  describe('past the stall timeout', () => {
    let gateway: { app: TestApp; upstream: FakeUpstream };
    beforeAll(async () => {
      gateway = await startGateway(0.5);
    });
    afterAll(async () => {
      await gateway.app.stop();
      await gateway.upstream.close();
    });

    it('cancels the run with client_stalled, and its record says why', async () => {
      const stats = createFirehoseStats();
      gateway.upstream.enqueue({ kind: 'firehose', chunks: CHUNKS, chunkBytes: CHUNK_BYTES, stats });
      const client = openStalledClient(gateway.app.url, route.path, route.body);
      try {
        const run = await liveRun(gateway.app);
        const result = await run.result;
        expect(result).toMatchObject({ status: 'cancelled', error: { code: 'client_stalled' } });
        const record = (await gateway.app.runs.find(run.runId))?.run;
        expect(record).toMatchObject({ status: 'cancelled', error_code: 'client_stalled' });
        expect(record?.error_message).toMatch(/stopped reading/);
        // The upstream request was closed with the run, long before its end.
        await vi.waitFor(() => expect(stats.done).toBe(true), { timeout: 10_000, interval: 10 });
        expect(stats.written).toBeLessThan(CHUNKS);
      } finally {
        client.destroy();
      }
    });
  });
});
