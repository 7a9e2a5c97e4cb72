/** An OTLP/HTTP receiver on loopback that decodes what the exporters send (OTLP JSON, and protobuf for traces). */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeTraceRequest } from './otlp-protobuf.js';

type AnyValue = {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: AnyValue[] };
};
type KeyValue = { key: string; value: AnyValue };

/** The parts of the OTLP JSON encoding (opentelemetry-proto) the tests read. */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano?: string;
  attributes?: KeyValue[];
  status?: { code?: number; message?: string };
  links?: { traceId: string; spanId: string }[];
  events?: { name: string; attributes?: KeyValue[] }[];
}
interface OtlpPoint {
  attributes?: KeyValue[];
  asDouble?: number;
  asInt?: number | string;
  count?: number | string;
  sum?: number;
}
interface OtlpMetric {
  name: string;
  sum?: { dataPoints?: OtlpPoint[] };
  gauge?: { dataPoints?: OtlpPoint[] };
  histogram?: { dataPoints?: OtlpPoint[] };
}
interface OtlpBody {
  resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
  resourceMetrics?: { scopeMetrics?: { metrics?: OtlpMetric[] }[] }[];
}

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** 1 internal, 2 server, 3 client (OTLP SpanKind). */
  kind: number;
  attributes: Record<string, unknown>;
  /** 2 is ERROR. */
  status: { code?: number; message?: string };
  links: { traceId: string; spanId: string }[];
  events: { name: string; attributes: Record<string, unknown> }[];
  service: string;
  start: bigint;
}

export interface ReceivedMetric {
  name: string;
  /** Every data point's attributes and value (a histogram's count and sum). */
  points: { attributes: Record<string, unknown>; value?: number; count?: number; sum?: number }[];
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  metrics(): ReceivedMetric[];
  close(): Promise<void>;
}

export function valueOf(value: AnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  return undefined;
}

const attributesOf = (list: KeyValue[] = []) => Object.fromEntries(list.map((kv) => [kv.key, valueOf(kv.value)]));

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const metricBatches: OtlpBody[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const bytes = Buffer.concat(chunks);
      const body = (
        request.headers['content-type'] === 'application/x-protobuf' && request.url === '/v1/traces'
          ? decodeTraceRequest(bytes)
          : JSON.parse(bytes.toString('utf8') || '{}')
      ) as OtlpBody;
      if (request.url === '/v1/traces') {
        for (const resourceSpans of body.resourceSpans ?? []) {
          const service = attributesOf(resourceSpans.resource?.attributes)['service.name'] as string;
          for (const scope of resourceSpans.scopeSpans ?? [])
            for (const span of scope.spans ?? [])
              spans.push({
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId || undefined,
                name: span.name,
                kind: span.kind,
                attributes: attributesOf(span.attributes),
                status: span.status ?? {},
                links: (span.links ?? []).map((link) => ({ traceId: link.traceId, spanId: link.spanId })),
                events: (span.events ?? []).map((event) => ({
                  name: event.name,
                  attributes: attributesOf(event.attributes),
                })),
                service,
                start: BigInt(span.startTimeUnixNano ?? 0),
              });
        }
      } else if (request.url === '/v1/metrics') metricBatches.push(body);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    metrics() {
      const byName = new Map<string, ReceivedMetric>();
      for (const batch of metricBatches)
        for (const resourceMetrics of batch.resourceMetrics ?? [])
          for (const scope of resourceMetrics.scopeMetrics ?? [])
            for (const metric of scope.metrics ?? []) {
              const entry = byName.get(metric.name) ?? { name: metric.name, points: [] };
              const data = metric.sum ?? metric.gauge ?? metric.histogram;
              for (const point of data?.dataPoints ?? [])
                entry.points.push({
                  attributes: attributesOf(point.attributes),
                  value: point.asDouble ?? (point.asInt === undefined ? undefined : Number(point.asInt)),
                  count: point.count === undefined ? undefined : Number(point.count),
                  sum: point.sum,
                });
              byName.set(metric.name, entry);
            }
      return [...byName.values()];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The spans of one trace as an indented tree of names (children in start order), for readable assertions. */
export function treeOf(spans: ReceivedSpan[], rootSpanId: string, depth = 0): string[] {
  const root = spans.find((span) => span.spanId === rootSpanId);
  if (!root) return [];
  const children = spans
    .filter((span) => span.parentSpanId === rootSpanId)
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  return [`${'  '.repeat(depth)}${root.name}`, ...children.flatMap((child) => treeOf(spans, child.spanId, depth + 1))];
}
