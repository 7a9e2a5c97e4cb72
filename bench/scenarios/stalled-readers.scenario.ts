import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { BENCH_API_KEY, BENCH_PROMPT, BENCH_SETTINGS, UPSTREAM_PROFILES } from '../bench-settings.js';
import type { FakeUpstreamStats } from '../fake-upstream-server.js';
import { readRssMb } from '../processes/read-rss.js';
import { sampleRss } from '../processes/sample-rss.js';
import { spawnService } from '../processes/spawn-service.js';
import type { Measurement } from '../report/bench-results.js';
import { startGateway } from '../targets/start-gateway.js';
import type { Scenario } from './scenario.js';

const { clients, streamBytes, chunkBytes, holdSeconds, sampleMs } = BENCH_SETTINGS.stalledReaders;
const SERVER_SCRIPT = fileURLToPath(new URL('../fake-upstream-server.ts', import.meta.url));
const MIB = 1024 * 1024;

/**
 * Issue 22's memory case: clients that request a 50 MB stream and never read a byte of it. Half ask for a chat
 * completion, half for an AG-UI run. The gateway's RSS is sampled while they hold still; the upstream reports
 * how much it managed to write, which shows whether the gateway kept reading it.
 */
export const stalledReadersScenario: Scenario = {
  name: 'stalled-readers',
  description: `${clients} clients (half POST /v1/chat/completions, half POST /agui/runs) that request a ${streamBytes / MIB} MB stream and never read it, held ${holdSeconds} s: peak RSS of the gateway (VmRSS, sampled every ${sampleMs} ms) and the bytes the upstream wrote.`,
  needsServices: false,
  async run(context) {
    const upstream = await spawnService({
      name: 'upstream-huge',
      nodeArgs: [
        '--import',
        'tsx',
        SERVER_SCRIPT,
        '--response-bytes',
        String(streamBytes),
        '--chunks',
        String(Math.ceil(streamBytes / chunkBytes)),
        '--backpressure',
      ],
      readyLine: /^listening on (http:\/\/\S+)$/,
      ipc: true,
    });
    const upstreamUrl = upstream.ready[1];
    // The other agents are never called here; their upstream URLs only have to parse.
    const unused = { url: 'http://127.0.0.1:9' };
    const cli = process.env.BENCH_GATEWAY_CLI;
    const gateway = await startGateway({
      runtime: context.runtime,
      upstreams: { fast: unused, paced: unused, slow: unused },
      hugeUpstreamUrl: upstreamUrl,
      guardrails: false,
      cli,
    });
    const sockets: Socket[] = [];
    try {
      const pid = gateway.process.pid;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const idle = readRssMb(pid) ?? null;
      const sampler = sampleRss(pid, sampleMs);
      const { port } = new URL(gateway.url);
      for (let index = 0; index < clients; index += 1) sockets.push(openStalledClient(Number(port), index % 2 === 0));
      await new Promise((resolve) => setTimeout(resolve, holdSeconds * 1000));
      const peak = sampler.stop();
      const end = readRssMb(pid) ?? null;
      const stats = await upstreamStats(upstreamUrl);
      const metrics = {
        clients,
        rss_idle_mb: idle,
        rss_peak_mb: peak,
        rss_end_of_hold_mb: end,
        upstream_streams: stats.streams,
        upstream_written_mb: Math.round((stats.bytes_written / MIB) * 10) / 10,
        upstream_written_per_stream_mb: stats.streams
          ? Math.round((stats.bytes_written / stats.streams / MIB) * 100) / 100
          : null,
      };
      context.log(
        `  ${clients} stalled clients: RSS idle ${idle} MiB, peak ${peak} MiB, after ${holdSeconds} s ${end} MiB; upstream wrote ${metrics.upstream_written_mb} MB over ${stats.streams} streams${cli ? ` (gateway ${cli})` : ''}`,
      );
      const measurements: Measurement[] = [{ case: `${clients} never-reading clients`, target: 'ours', metrics }];
      return {
        measurements,
        ratios: [],
        notes: [
          `Target (issue 22): rss_peak_mb ≤ 300 with 100 clients. Each upstream stream is ${streamBytes / MIB} MB in ${chunkBytes}-byte chunks; a gateway that keeps reading drains it whatever the client does. BENCH_STALLED_CLIENTS and BENCH_STALLED_HOLD_SECONDS set the load; BENCH_GATEWAY_CLI runs another build (for the before figure).`,
          `The fast, paced and slow upstreams of the other scenarios are not used (${Object.keys(UPSTREAM_PROFILES).join(', ')}).`,
        ],
      };
    } finally {
      for (const socket of sockets) socket.destroy();
      await gateway.stop();
      await upstream.stop();
    }
  },
};

/** A raw TCP client that sends its request and then never reads: the kernel's buffers fill and stay full. */
function openStalledClient(port: number, chat: boolean): Socket {
  const body = JSON.stringify(
    chat
      ? { model: 'bench-huge', stream: true, messages: [{ role: 'user', content: BENCH_PROMPT }] }
      : { agent_name: 'bench-huge', message: BENCH_PROMPT },
  );
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.pause();
  socket.write(
    `POST ${chat ? '/v1/chat/completions' : '/agui/runs'} HTTP/1.1\r\nhost: 127.0.0.1\r\n` +
      `authorization: Bearer ${BENCH_API_KEY}\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  return socket;
}

async function upstreamStats(url: string): Promise<FakeUpstreamStats> {
  const response = await fetch(`${url}/stats`);
  return (await response.json()) as FakeUpstreamStats;
}
