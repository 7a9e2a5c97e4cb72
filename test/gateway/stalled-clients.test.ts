import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { RunHandle } from '../../src/agents/index.js';
import { startTestApp, TEST_API_KEY, type TestApp } from '../support/app.js';
import {
  createFirehoseStats,
  startFakeUpstream,
  type FakeUpstream,
  type FirehoseStats,
} from '../support/fake-upstream.js';
import { gatewayYaml } from './openai/openai-harness.js';

/** 64 MB in 16 KiB chunks: far more than every buffer between the upstream and the client holds. */
const CHUNKS = 4096;
const CHUNK_BYTES = 16 * 1024;
/** The run's output cap (runs.max_output_bytes): a run that drained the upstream would end past it. */
const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

/** A client that asked for a stream and reads nothing of it; destroy() drops its connection. */
interface StalledClient {
  destroy(): void;
}

const ROUTES = [
  {
    name: 'POST /v1/chat/completions',
    open: (url: string) =>
      openStalledClient(url, '/v1/chat/completions', {
        model: 'helper',
        stream: true,
        messages: [{ role: 'user', content: 'everything' }],
      }),
  },
  {
    name: 'POST /agui/runs',
    open: (url: string) => openStalledClient(url, '/agui/runs', { agent_name: 'helper', message: 'everything' }),
  },
  { name: 'WS /agui/ws', open: openStalledWebSocket },
];

/** A raw TCP client that sends its request and then never reads a byte of the answer. */
function openStalledClient(url: string, path: string, body: object): Promise<StalledClient> {
  const { port } = new URL(url);
  const text = JSON.stringify(body);
  const socket = connect(Number(port), '127.0.0.1');
  socket.on('error', () => undefined);
  socket.pause();
  socket.write(
    `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${TEST_API_KEY}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
  );
  return Promise.resolve({ destroy: () => socket.destroy() });
}

/** A `ws` client that sends its message and then pauses its socket: it takes none of the frames that follow. */
async function openStalledWebSocket(url: string): Promise<StalledClient> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/agui/ws?agent_name=helper`, {
    headers: { authorization: `Bearer ${TEST_API_KEY}` },
  });
  socket.on('error', () => undefined);
  await once(socket, 'open');
  socket.send(JSON.stringify({ type: 'message', content: 'everything' }));
  socket.pause();
  return { destroy: () => socket.terminate() };
}

async function startGateway(stalledSeconds: number): Promise<{ app: TestApp; upstream: FakeUpstream }> {
  const upstream = await startFakeUpstream();
  const yaml =
    `${gatewayYaml()}\nserver:\n  stalled_client_timeout_seconds: ${stalledSeconds}\n` +
    `runs:\n  max_output_bytes: ${MAX_OUTPUT_BYTES}\n`;
  const app = await startTestApp(yaml, { env: { UPSTREAM_URL: upstream.url } });
  return { app, upstream };
}

/** A gateway (and its upstream) for the enclosing describe: started before its tests, stopped after them. */
function useGateway(stalledSeconds: number): { app: TestApp; upstream: FakeUpstream } {
  const gateway = {} as { app: TestApp; upstream: FakeUpstream };
  beforeAll(async () => {
    Object.assign(gateway, await startGateway(stalledSeconds));
  });
  afterAll(async () => {
    await gateway.app?.stop();
    await gateway.upstream?.close();
  });
  return gateway;
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

/**
 * Resolves once the run stopped moving: across three probes in a row neither did the upstream write nor did
 * the run publish an event. Never resolves while the run reads on (each probe gives it many turns to read).
 */
async function heldBack(app: TestApp, run: RunHandle, stats: FirehoseStats): Promise<'held back'> {
  let ended = false;
  void run.result.finally(() => (ended = true));
  let mark = '';
  for (let still = 0; still < 3 && !ended;) {
    await probe(app);
    const seq = (await app.bus.history(run.runId)).at(-1)?.seq ?? 0;
    const now = `${stats.written}:${seq}`;
    still = now === mark ? still + 1 : 0;
    mark = now;
  }
  return 'held back';
}

/** The text a run read from its upstream and published: what the gateway holds of its answer. */
async function textRead(app: TestApp, run: RunHandle): Promise<number> {
  let bytes = 0;
  for (const event of await app.bus.history(run.runId)) if (event.type === 'text-delta') bytes += event.delta.length;
  return bytes;
}

async function liveRun(app: TestApp): Promise<RunHandle> {
  await vi.waitFor(() => expect(app.runs.active()).toHaveLength(1), { timeout: 10_000, interval: 10 });
  return app.runs.active()[0];
}

describe.each(ROUTES)('a client of $name that stops reading', (route) => {
  describe('while it is stopped', () => {
    const gateway = useGateway(600);

    it('holds the upstream back: the gateway stops reading it', async () => {
      const stats = createFirehoseStats();
      gateway.upstream.enqueue({ kind: 'firehose', chunks: CHUNKS, chunkBytes: CHUNK_BYTES, stats });
      const client = await route.open(gateway.app.url);
      try {
        const run = await liveRun(gateway.app);
        await vi.waitFor(() => expect(stats.waiting).toBe(true), { timeout: 20_000, interval: 10 });

        // A run that kept reading would say more than its output cap and end with output_too_large.
        const outcome = await Promise.race([
          run.result.then((result) => result.status),
          heldBack(gateway.app, run, stats),
        ]);
        expect(outcome).toBe('held back');
        expect(stats).toMatchObject({ waiting: true, done: false });
        // What left the upstream is what the buffers on both sides hold, not the 32 MiB an unheld run reaches.
        expect(stats.written * CHUNK_BYTES).toBeLessThan(MAX_OUTPUT_BYTES / 2);

        client.destroy();
        expect(await run.result).toMatchObject({ status: 'cancelled', error: { code: 'client_closed' } });
      } finally {
        client.destroy();
      }
    });
  });

  describe('past the stall timeout', () => {
    const gateway = useGateway(0.5);

    it('cancels the run with client_stalled, and its record says why', async () => {
      const stats = createFirehoseStats();
      gateway.upstream.enqueue({ kind: 'firehose', chunks: CHUNKS, chunkBytes: CHUNK_BYTES, stats });
      const client = await route.open(gateway.app.url);
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

/**
 * The kernel takes several MB of a client that stopped reading (Linux grows a loopback socket's send buffer
 * to net.ipv4.tcp_wmem's 4 MB): a run that counted what it handed to the socket as read by its client went
 * on reading that much of its upstream, and kept its text, for every stalled client (issue 22's bench:
 * 100 clients, 1 GiB). The run reads no further ahead of what the client's TCP stack acknowledged than
 * its flow window (64 KiB) and the backlog the socket may hold (256 KiB), plus the client's own receive
 * buffer (336 KiB of text per run at 16 KiB chunks on 2026-11-25; 0.54–0.67 MB with a 256 KiB window).
 */
describe.each(ROUTES)('five clients of $name that never read', (route) => {
  const gateway = useGateway(600);

  it('each hold their run to a bounded read of the upstream (at most 2 MiB of text), wherever the kernel buffers', async () => {
    const clients: StalledClient[] = [];
    try {
      for (let index = 0; index < 5; index += 1) {
        gateway.upstream.enqueue({
          kind: 'firehose',
          chunks: CHUNKS,
          chunkBytes: CHUNK_BYTES,
          stats: createFirehoseStats(),
        });
        clients.push(await route.open(gateway.app.url));
      }
      await vi.waitFor(() => expect(gateway.app.runs.active()).toHaveLength(5), { timeout: 10_000, interval: 10 });
      const runs = gateway.app.runs.active();
      const read: number[] = [];
      for (const run of runs) {
        // Held back, not ended: a run that read on would end past its output cap.
        const outcome = await Promise.race([
          run.result.then((result) => result.status),
          heldBack(gateway.app, run, createFirehoseStats()),
        ]);
        expect(outcome).toBe('held back');
        read.push(await textRead(gateway.app, run));
      }
      for (const bytes of read) expect(bytes).toBeLessThanOrEqual(2 * 1024 * 1024);
    } finally {
      for (const client of clients) client.destroy();
    }
  });
});
