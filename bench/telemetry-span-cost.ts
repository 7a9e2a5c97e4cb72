// The CPU time of the telemetry work one non-streamed request does (server span with an incoming traceparent,
// run span, chat span with its GenAI attributes, traceparent on the upstream request, log fields), with
// telemetry off (the API's no-op) and on (the SDK, batching to a local collector). In-process and free of
// HTTP, so it holds on a busy machine where bench/telemetry.ts cannot: `npx tsx bench/telemetry-span-cost.ts`.
import { createServer } from 'node:http';
import { SpanKind } from '@opentelemetry/api';
import type { AddressInfo } from 'node:net';
import { telemetrySchema } from '../src/config/index.js';
import {
  endChatSpan,
  endRunSpan,
  injectTraceHeaders,
  startChatSpan,
  startRunSpan,
  startTelemetry,
  traceLogFields,
} from '../src/telemetry/index.js';
import { extractTraceContext } from '../src/telemetry/trace-context.js';
import { tracer } from '../src/telemetry/tracer.js';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 20_000);
/** `http/protobuf` (the default) or `http/json`: the trace exporter's encoding. */
const PROTOCOL = process.env.BENCH_PROTOCOL ?? 'http/protobuf';
const HEADERS = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };

function oneRequest(): void {
  // The attributes http-server-spans.ts sets on a chat completion's server span.
  const server = tracer().startSpan(
    'POST /v1/chat/completions',
    {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': 'POST',
        'url.path': '/v1/chat/completions',
        'url.scheme': 'http',
        'http.route': '/v1/chat/completions',
        'user_agent.original': 'OpenAI/JS 5.0.0',
        'client.address': '127.0.0.1',
      },
    },
    extractTraceContext(HEADERS),
  );
  // The parents are passed explicitly, as the gateway does (no context manager); the log fields are bound
  // once per request and per run, on their child loggers.
  traceLogFields(server);
  const run = startRunSpan({ agentName: 'bench-fast', source: 'chat' }, server);
  traceLogFields(run);
  const chat = startChatSpan(
    () => ({
      provider: 'fast',
      providerType: 'openai-compatible',
      modelId: 'bench-model',
      temperature: 0.7,
    }),
    run,
  );
  injectTraceHeaders({ 'content-type': 'application/json' }, chat);
  endChatSpan(chat, {
    stepId: 'stp_1',
    modelId: 'bench-model',
    finishReason: 'stop',
    inputTokens: 12,
    outputTokens: 128,
    costUsd: 0.0001,
    ttftMs: 3,
  });
  endRunSpan(run, { runId: 'run_1', status: 'completed', costUsd: 0.0001, inputTokens: 12, outputTokens: 128 });
  server.setAttribute('http.response.status_code', 200);
  server.end();
}

// Requests go in slices with the event loop turning in between, so the batch processor exports as it would
// under load (its serialization and HTTP are counted; so is the loopback collector's share, a small overcount).
async function measure(flush: () => Promise<void>): Promise<number> {
  const run = async (count: number) => {
    for (let i = 0; i < count; i += 100) {
      for (let j = 0; j < 100; j += 1) oneRequest();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await flush();
  };
  await run(2_000);
  const before = process.cpuUsage();
  await run(ITERATIONS);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / ITERATIONS;
}

const collector = createServer((request, response) => {
  request.resume();
  request.on('end', () => response.writeHead(200).end('{}'));
});
await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;

const off = await measure(() => Promise.resolve());
const telemetry = await startTelemetry(telemetrySchema.parse({ enabled: true, endpoint, protocol: PROTOCOL }), 'bench');
const on = await measure(() => telemetry.flush());
await telemetry.shutdown();
collector.close();
console.log('| telemetry | CPU µs per request (spans, context, propagation) |');
console.log('|---|---|');
console.log(`| off | ${off.toFixed(2)} |`);
console.log(`| on (${PROTOCOL}) | ${on.toFixed(2)} |`);
