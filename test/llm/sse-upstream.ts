/** A loopback upstream that answers with exactly the SSE events (or status and body) a test gives, for wire details the fake upstream does not produce. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SseAnswer {
  status?: number;
  headers?: Record<string, string>;
  /** Each event is written as `data: <JSON or the string>\n\n`, in its own write. */
  events?: (object | string)[];
  /** Written as is instead of events (for error bodies). */
  body?: string;
}

export interface SseUpstream {
  url: string;
  requests: { path: string; headers: IncomingHttpHeaders; body: any }[];
  enqueue(...answers: SseAnswer[]): void;
  close(): Promise<void>;
}

/** A chunk in the OpenAI stream format with the given delta and finish reason. */
export function chatChunk(delta: object, finishReason: string | null = null, extra: object = {}): object {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
    ...extra,
  };
}

export async function startSseUpstream(): Promise<SseUpstream> {
  const requests: SseUpstream['requests'] = [];
  const queue: SseAnswer[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({
        path: req.url ?? '/',
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null'),
      });
      const answer = queue.shift() ?? { status: 500, body: '{"error":{"message":"no answer queued"}}' };
      res.writeHead(answer.status ?? 200, {
        'content-type': answer.events ? 'text/event-stream' : 'application/json',
        ...answer.headers,
      });
      if (answer.events)
        for (const event of answer.events)
          res.write(`data: ${typeof event === 'string' ? event : JSON.stringify(event)}\n\n`);
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...answers) => {
      queue.push(...answers);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
