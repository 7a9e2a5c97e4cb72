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
  close(): Promise<void>;
}

export async function startSseSource(): Promise<SseSource> {
  const log: { id: string; frame: string }[] = [];
  const open = new Set<ServerResponse>();
  const state = { lastEventIds: [] as (string | undefined)[], failWith: undefined as number | undefined };
  const server = createServer((request, response) => {
    const lastEventId = request.headers['last-event-id'];
    state.lastEventIds.push(typeof lastEventId === 'string' ? lastEventId : undefined);
    if (state.failWith !== undefined) return void response.writeHead(state.failWith, { 'content-type': 'application/json' }).end('{}');
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    response.write(': hello\n\n');
    const from = typeof lastEventId === 'string' ? log.findIndex((entry) => entry.id === lastEventId) + 1 : 0;
    for (const entry of log.slice(from)) response.write(entry.frame);
    open.add(response);
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
      for (const response of open) response.write(frame);
      return id;
    },
    drop() {
      for (const response of open) response.destroy();
    },
    connections: () => open.size,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
