// A fake OpenAI-compatible upstream, run as its own process so that its CPU is not the gateway's:
// `node --import tsx bench/fake-upstream-server.ts [--port 0] [--latency-ms 0] [--response-bytes 512]
//   [--chunks 8] [--chunk-interval-ms 0] [--stamp] [--backpressure]` (or FAKE_UPSTREAM_<FLAG> environment variables).
// `GET /stats` answers what it streamed so far: {streams, open, bytes_written}.
// Prints `listening on http://127.0.0.1:<port>` once ready and exits when its parent goes away.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createChunkText, formatStamp, nowMs } from './upstream/chunk-text.js';

export interface FakeUpstreamSettings {
  host: string;
  port: number;
  /** Wait before the response headers, like a model's queueing and prefill. */
  latencyMs: number;
  /** Characters of assistant content per response. */
  responseBytes: number;
  /** Content chunks of a streamed response. */
  chunks: number;
  /** Wait between two streamed chunks. */
  chunkIntervalMs: number;
  /** Starts each chunk with `[t=<epoch ms>]`, the moment it is written, so clients can measure delivery lag. */
  stamp: boolean;
  /**
   * Waits for 'drain' whenever a write finds the socket buffer full, as a real provider's server does: a
   * reader that stops reading stops the stream, and bytes_written shows how far it got.
   */
  backpressure: boolean;
}

/** What the upstream streamed so far (GET /stats). */
export interface FakeUpstreamStats {
  streams: number;
  open: number;
  bytes_written: number;
}

const USAGE = { prompt_tokens: 12, completion_tokens: 128, total_tokens: 140 };

function readSettings(): FakeUpstreamSettings {
  const env = (name: string) => process.env[`FAKE_UPSTREAM_${name}`];
  const { values } = parseArgs({
    options: {
      host: { type: 'string', default: env('HOST') ?? '127.0.0.1' },
      port: { type: 'string', default: env('PORT') ?? '0' },
      'latency-ms': { type: 'string', default: env('LATENCY_MS') ?? '0' },
      'response-bytes': { type: 'string', default: env('RESPONSE_BYTES') ?? '512' },
      chunks: { type: 'string', default: env('CHUNKS') ?? '8' },
      'chunk-interval-ms': { type: 'string', default: env('CHUNK_INTERVAL_MS') ?? '0' },
      stamp: { type: 'boolean', default: env('STAMP') === '1' },
      backpressure: { type: 'boolean', default: env('BACKPRESSURE') === '1' },
    },
  });
  return {
    host: values.host,
    port: Number(values.port),
    latencyMs: Number(values['latency-ms']),
    responseBytes: Number(values['response-bytes']),
    chunks: Math.max(1, Number(values.chunks)),
    chunkIntervalMs: Number(values['chunk-interval-ms']),
    stamp: values.stamp,
    backpressure: values.backpressure,
  };
}

/** Starts the server; resolves with its URL (no `/v1`). */
export async function startFakeUpstream(
  settings: FakeUpstreamSettings,
): Promise<{ url: string; close(): Promise<void> }> {
  const chunkText = createChunkText(settings.responseBytes, settings.chunks);
  // Without stamps every non-streamed body is the same: build it once so the upstream costs next to nothing.
  const fixedBody = settings.stamp ? undefined : Buffer.from(JSON.stringify(completion(chunkText.join(''))));
  const stats: FakeUpstreamStats = { streams: 0, open: 0, bytes_written: 0 };
  const server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/stats') {
      json(response, Buffer.from(JSON.stringify(stats)));
      return;
    }
    if (request.method !== 'POST' || !/^(\/v1)?\/chat\/completions$/.test(request.url ?? '')) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    void readJson(request).then((body) => {
      // stream() never rejects: a client gone mid-stream only ends the loop.
      const answer = () =>
        void (body.stream === true
          ? stream(response, settings, chunkText, body.stream_options?.include_usage === true, stats)
          : json(response, fixedBody ?? Buffer.from(JSON.stringify(completion(stamped(chunkText).join(''))))));
      if (settings.latencyMs > 0) setTimeout(answer, settings.latencyMs);
      else answer();
    });
  });
  // Clients pool connections; Node's 5 s default would reset idle ones under them between rounds.
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 121_000;
  await new Promise<void>((resolve) => server.listen(settings.port, settings.host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${settings.host}:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function completion(content: string) {
  return {
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: 'bench-model',
    choices: [
      { index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' },
    ],
    usage: USAGE,
  };
}

function chunk(delta: object, finishReason: string | null = null): string {
  return event([{ index: 0, delta, logprobs: null, finish_reason: finishReason }], null);
}

/** With `stream_options.include_usage`, OpenAI sends the usage last, in a chunk with no choices. */
function usageChunk(): string {
  return event([], USAGE);
}

function event(choices: object[], usage: object | null): string {
  const payload = {
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: 'bench-model',
    choices,
    usage,
  };
  return `data: ${JSON.stringify(payload)}\n\n`;
}

function json(response: ServerResponse, body: Buffer): void {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  response.end(body);
}

async function stream(
  response: ServerResponse,
  settings: FakeUpstreamSettings,
  pieces: string[],
  includeUsage: boolean,
  stats: FakeUpstreamStats,
): Promise<void> {
  stats.streams += 1;
  stats.open += 1;
  response.on('close', () => (stats.open -= 1));
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.write(chunk({ role: 'assistant', content: '' }));
  for (let index = 0; index < pieces.length; index += 1) {
    if (index > 0 && settings.chunkIntervalMs > 0) await sleep(settings.chunkIntervalMs);
    if (response.destroyed) return;
    const text = settings.stamp ? `${formatStamp(nowMs())}${pieces[index]}` : pieces[index];
    const data = chunk({ content: text });
    stats.bytes_written += data.length;
    if (!response.write(data) && settings.backpressure)
      await Promise.race([once(response, 'drain'), once(response, 'close')]).catch(() => undefined);
  }
  response.write(chunk({}, 'stop'));
  if (includeUsage) response.write(usageChunk());
  response.end('data: [DONE]\n\n');
}

function stamped(pieces: string[]): string[] {
  const stamp = formatStamp(nowMs());
  return pieces.map((piece) => `${stamp}${piece}`);
}

function readJson(
  request: IncomingMessage,
): Promise<{ stream?: boolean; stream_options?: { include_usage?: boolean } }> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(parts).toString('utf8')) as { stream?: boolean });
      } catch {
        resolve({});
      }
    });
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const server = await startFakeUpstream(readSettings());
  // Spawned by the bench with an IPC channel: when the bench dies, the channel closes and so does the upstream.
  process.on('disconnect', () => process.exit(0));
  process.on('SIGTERM', () => process.exit(0));
  console.log(`listening on ${server.url}`);
}
