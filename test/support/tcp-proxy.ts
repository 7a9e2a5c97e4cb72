import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on loopback that a fault test controls: it forwards to its target until told to cut the
 * connections (a failover, a broker restart), refuse new ones (the server is unreachable) or hold them silent
 * (a network partition: the sockets stay open and nothing crosses).
 */
export interface TcpProxy {
  /** The port clients connect to. */
  port: number;
  /** `scheme://[auth@]127.0.0.1:port`. */
  url(scheme: string, auth?: string): string;
  /** Destroys every open connection, both sides, as a failover or a network reset does. */
  reset(): void;
  /** Destroys every open connection and drops new ones as they arrive, until `restore()`. */
  cut(): void;
  /** Stops listening and drops every open connection: new connections are refused until `restore()`. */
  refuse(): Promise<void>;
  /**
   * Every connection open now, and every one made until `restore()`, stays open and forwards nothing
   * (half-open, as behind a partition). `restore()` does not wake them: only new connections work again.
   */
  silence(): void;
  /** New connections are forwarded again (listening again after `refuse()`). */
  restore(): Promise<void>;
  /** Connections accepted and forwarded so far (reconnections included). */
  accepted(): number;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket;
  silent: boolean;
}

export async function startTcpProxy(target: { port: number; host?: string }): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let silent = false;
  let dropping = false;
  let accepted = 0;
  const server: Server = createServer((client) => {
    if (dropping) return void client.destroy();
    accepted += 1;
    const upstream = connect(target.port, target.host ?? '127.0.0.1');
    const pair: Pair = { client, upstream, silent };
    pairs.add(pair);
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (chunk: Buffer) => {
        if (!pair.silent) to.write(chunk);
      });
    forward(client, upstream);
    forward(upstream, client);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await listenOn(server, 0);
  const port = (server.address() as { port: number }).port;

  const destroyAll = () => {
    for (const pair of pairs) {
      pair.client.destroy();
      pair.upstream.destroy();
    }
    pairs.clear();
  };

  return {
    port,
    url: (scheme, auth) => `${scheme}://${auth ? `${auth}@` : ''}127.0.0.1:${port}`,
    reset: destroyAll,
    cut() {
      dropping = true;
      destroyAll();
    },
    async refuse() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      destroyAll();
      await closed;
    },
    silence() {
      silent = true;
      for (const pair of pairs) pair.silent = true;
    },
    async restore() {
      silent = false;
      dropping = false;
      if (!server.listening) await listenOn(server, port);
    },
    accepted: () => accepted,
    async close() {
      destroyAll();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function listenOn(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}
