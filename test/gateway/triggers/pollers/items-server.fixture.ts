import { createServer, type IncomingHttpHeaders } from 'node:http';

/** A loopback HTTP endpoint for pollers: answers each GET with `respond()`; records the request headers. */
export interface ItemsServer {
  url: string;
  requests: IncomingHttpHeaders[];
  respond: () => { status: number; body: unknown };
  close(): Promise<void>;
}

export async function startItemsServer(): Promise<ItemsServer> {
  const state: ItemsServer = {
    url: '',
    requests: [],
    respond: () => ({ status: 200, body: [] }),
    close: async () => undefined,
  };
  const server = createServer((request, response) => {
    state.requests.push(request.headers);
    const { status, body } = state.respond();
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  state.close = () => {
    // Keep-alive sockets from the poller's fetch would hold close() up until they time out.
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return state;
}
