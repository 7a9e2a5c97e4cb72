import { once } from 'node:events';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { aguiRoutes } from '../../../../src/gateway/agui/index.js';
import { createServer } from '../../../../src/http/index.js';
import { createFirehoseStats } from '../../../support/fake-upstream.js';
import { startAguiGateway, type AguiGateway } from '../agui-harness.js';

// A heartbeat far shorter than the stall timeout: a client that stopped reading answers no ping meanwhile.
const HEARTBEAT_MS = 400;
const STALLED_MS = 2_000;

describe('WebSocket heartbeat and stall timeout', () => {
  let gateway: AguiGateway;
  let server: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    gateway = await startAguiGateway();
    server = await createServer({ logLevel: 'silent', bodyLimitBytes: 1024 * 1024, corsOrigins: [], version: 'test' });
    await server.register(aguiRoutes, {
      agents: gateway.app.agents,
      runs: gateway.app.runs,
      heartbeatMs: HEARTBEAT_MS,
      stalledTimeoutMs: STALLED_MS,
    });
    base = await server.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await server.close();
    await gateway.stop();
  });

  it('is dropped by the stall timeout, not the heartbeat: its run ends client_stalled', async () => {
    gateway.upstream.enqueue({ kind: 'firehose', chunks: 4096, chunkBytes: 16 * 1024, stats: createFirehoseStats() });
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/agui/ws?agent_name=helper`);
    socket.on('error', () => undefined);
    await once(socket, 'open');
    socket.send(JSON.stringify({ type: 'message', content: 'everything' }));
    socket.pause();
    try {
      await vi.waitFor(() => expect(gateway.app.runs.active()).toHaveLength(1), { timeout: 10_000, interval: 10 });
      const run = gateway.app.runs.active()[0];
      expect(await run.result).toMatchObject({ status: 'cancelled', error: { code: 'client_stalled' } });
    } finally {
      socket.terminate();
    }
  });

  it('still drops an idle socket that answers no ping', async () => {
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/agui/ws?agent_name=helper`, { autoPong: false });
    socket.on('error', () => undefined);
    await once(socket, 'open');
    const [code] = (await once(socket, 'close')) as [number];
    // Terminated, not closed with a close frame: 1006.
    expect(code).toBe(1006);
  });
});
