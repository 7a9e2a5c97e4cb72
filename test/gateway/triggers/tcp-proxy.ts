import { createServer, connect, type Server, type Socket } from 'node:net';

/** A loopback TCP proxy a test can cut, to drop a client's connection to a real broker and refuse it for a while. */
export interface TcpProxy {
  port: number;
  url(scheme: string, auth?: string): string;
  /** Destroys every open connection and refuses new ones until restore(). */
  cut(): void;
  restore(): void;
  /** Connections accepted so far (reconnections included). */
  accepted(): number;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let down = false;
  let accepted = 0;
  const server: Server = createServer((client) => {
    if (down) return void client.destroy();
    accepted += 1;
    const upstream = connect(targetPort, targetHost);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    url: (scheme, auth) => `${scheme}://${auth ? `${auth}@` : ''}127.0.0.1:${port}`,
    cut() {
      down = true;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      down = false;
    },
    accepted: () => accepted,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
