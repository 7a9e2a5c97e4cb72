// The CPU time of turning a chat completion's three spans (server, invoke_agent, chat, with the gateway's
// attributes) into the OTLP protobuf export request: OTel's ProtobufTraceSerializer (what the exporter
// brings) against src/telemetry/sdk/otlp-trace-encoder.ts, in interleaved rounds on the same batches of
// real SDK spans, medians per request. In-process, no HTTP: `npx tsx bench/experiments/telemetry-serializer.ts`.
import { loadavg } from 'node:os';
import { ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOnSampler, BasicTracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { OtlpTraceEncoder } from '../../src/telemetry/sdk/otlp-trace-encoder.js';

const REQUESTS_PER_BATCH = 170; // 510 spans: the BatchSpanProcessor's batch is up to 512
const BATCHES = 20;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);

const batches: ReadableSpan[][] = [];
const provider = new BasicTracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'agent-gateway', 'service.version': '0.0.0' }),
  sampler: new AlwaysOnSampler(),
  spanProcessors: [
    {
      onStart() {},
      onEnd(span: ReadableSpan) {
        const last = batches.at(-1);
        if (last && last.length < REQUESTS_PER_BATCH * 3) last.push(span);
        else batches.push([span]);
      },
      forceFlush: async () => {},
      shutdown: async () => {},
    },
  ],
});
const tracer = provider.getTracer('agent-gateway', '0.0.0');

/** The spans and attributes of a non-streamed chat completion (as in the microbenchmark of issue 18). */
function oneRequest(n: number): void {
  const server = tracer.startSpan(
    'POST /v1/chat/completions',
    {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': 'POST',
        'url.path': '/v1/chat/completions',
        'url.scheme': 'http',
        'http.route': '/v1/chat/completions',
        'user_agent.original': 'autocannon',
        'client.address': '127.0.0.1',
      },
    },
    ROOT_CONTEXT,
  );
  const run = tracer.startSpan(
    'invoke_agent helper',
    {
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'helper',
        'agent_gateway.run.source': 'chat',
        'gen_ai.conversation.id': 'ses_123456789',
      },
    },
    trace.setSpan(ROOT_CONTEXT, server),
  );
  const chat = tracer.startSpan(
    'chat test-model',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'upstream',
        'gen_ai.request.model': 'test-model',
        'gen_ai.request.temperature': 0.2,
      },
    },
    trace.setSpan(ROOT_CONTEXT, run),
  );
  chat.setAttributes({
    'agent_gateway.step.id': `stp_123${n}`,
    'gen_ai.response.model': 'test-model',
    'agent_gateway.cost_usd': 0.0001,
    'gen_ai.response.finish_reasons': ['stop'],
    'gen_ai.usage.input_tokens': 12,
    'gen_ai.usage.output_tokens': 5,
    'agent_gateway.ttft_ms': 3,
  });
  chat.end();
  run.setAttributes({
    'agent_gateway.run.id': `run_abcdef123456${n}`,
    'agent_gateway.run.status': 'completed',
    'agent_gateway.cost_usd': 0.0001,
    'gen_ai.usage.input_tokens': 12,
    'gen_ai.usage.output_tokens': 5,
    'gen_ai.response.finish_reasons': ['stop'],
  });
  run.end();
  server.setAttribute('http.response.status_code', 200);
  server.end();
}

for (let n = 0; n < REQUESTS_PER_BATCH * BATCHES; n++) oneRequest(n);

type Serialize = (spans: ReadableSpan[]) => Uint8Array | undefined;
// The serializer OTel's exporter builds for itself (the exporter's own copy of otlp-transformer).
const otel = (new OTLPTraceExporter() as unknown as { _delegate: { _serializer: { serializeRequest: Serialize } } })
  ._delegate._serializer;
const encoder = new OtlpTraceEncoder();
const candidates: Record<string, Serialize> = {
  'OTel ProtobufTraceSerializer': (spans) => otel.serializeRequest(spans),
  'OtlpTraceEncoder (ours)': (spans) => encoder.encode(spans),
};

for (const batch of batches) {
  const a = Buffer.from(candidates['OTel ProtobufTraceSerializer'](batch) ?? []);
  const b = Buffer.from(candidates['OtlpTraceEncoder (ours)'](batch) ?? []);
  if (!a.equals(b)) throw new Error('the encoders disagree: not the same bytes');
}

/** CPU µs per request for one pass over all batches. */
function measure(serialize: Serialize): number {
  const before = process.cpuUsage();
  for (const batch of batches) serialize(batch);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / (REQUESTS_PER_BATCH * BATCHES);
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
const results: Record<string, number[]> = Object.fromEntries(Object.keys(candidates).map((name) => [name, []]));
for (let warm = 0; warm < 5; warm++) for (const serialize of Object.values(candidates)) measure(serialize);
for (let round = 0; round < ROUNDS; round++) {
  // Alternate the order so neither always runs right after the other's garbage.
  const names = Object.keys(candidates);
  if (round % 2) names.reverse();
  for (const name of names) results[name].push(measure(candidates[name]));
}
const bytes = (encoder.encode(batches[0]).length / REQUESTS_PER_BATCH).toFixed(0);
console.log(`${REQUESTS_PER_BATCH * 3} spans per batch, ${bytes} bytes per request, ${ROUNDS} rounds`);
for (const [name, values] of Object.entries(results)) {
  console.log(`${name.padEnd(30)} ${median(values).toFixed(2).padStart(7)} µs per request (median)`);
}
const [ours, theirs] = [median(results['OtlpTraceEncoder (ours)']), median(results['OTel ProtobufTraceSerializer'])];
console.log(
  `speed-up ${(theirs / ours).toFixed(2)}×, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
