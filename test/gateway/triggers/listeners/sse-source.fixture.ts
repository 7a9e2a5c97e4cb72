import { createServer, type ServerResponse } from 'node:http';

/**
 * A loopback SSE source that keeps an event log: a client gets every event after its Last-Event-ID,
 * then new ones as they are published. drop() cuts every open stream, as a network failure would.
 */
export interface SseSource {
  url: string;
  /** The Last-Event-ID header of each connection, in order (undefined: none sent). */
  lastEventIds: (string | undefined)[];
  /** Answers the next connections with this status instead of a stream, while set. */
  failWith: number | undefined;
  publish(data: unknown, options?: { event?: string }): string;
  drop(): void;
  connections(): number;
  /** The most streams open at once so far. */
  maxConnections(): number;
  /** While set, open streams get a comment (`: keep-alive`) this often, and nothing else. */
  keepAlive(everyMs: number | undefined): void;
  /** Keep-alive comments written so far. */
  commentsSent(): number;
  /** While true, new events are logged but not written to open streams (a source gone silent). */
  silent: boolean;
  close(): Promise<void>;
}

export async function startSseSource(): Promise<SseSource> {
  const log: { id: string; frame: string }[] = [];
  const open = new Set<ServerResponse>();
  const state = {
    lastEventIds: [] as (string | undefined)[],
    failWith: undefined as number | undefined,
    max: 0,
    comments: 0,
    silent: false,
  };
  let keepAlive: NodeJS.Timeout | undefined;
  const server = createServer((request, response) => {
    const lastEventId = request.headers['last-event-id'];
    state.lastEventIds.push(typeof lastEventId === 'string' ? lastEventId : undefined);
    if (state.failWith !== undefined)
      return void response.writeHead(state.failWith, { 'content-type': 'application/json' }).end('{}');
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    response.write(': hello\n\n');
    const from = typeof lastEventId === 'string' ? log.findIndex((entry) => entry.id === lastEventId) + 1 : 0;
    for (const entry of log.slice(from)) response.write(entry.frame);
    open.add(response);
    state.max = Math.max(state.max, open.size);
    response.on('close', () => open.delete(response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/events`,
    get lastEventIds() {
      return state.lastEventIds;
    },
    get failWith() {
      return state.failWith;
    },
    set failWith(status) {
      state.failWith = status;
    },
    publish(data, options = {}) {
      const id = String(log.length + 1);
      const frame = `id: ${id}\n${options.event ? `event: ${options.event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
      log.push({ id, frame });
      if (!state.silent) for (const response of open) response.write(frame);
      return id;
    },
    drop() {
      for (const response of open) response.destroy();
    },
    connections: () => open.size,
    maxConnections: () => state.max,
    keepAlive(everyMs) {
      clearInterval(keepAlive);
      keepAlive =
        everyMs === undefined
          ? undefined
          : setInterval(() => {
              for (const response of open) response.write(': keep-alive\n\n');
              state.comments += 1;
            }, everyMs);
    },
    commentsSent: () => state.comments,
    get silent() {
      return state.silent;
    },
    set silent(value) {
      state.silent = value;
    },
    async close() {
      clearInterval(keepAlive);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
