import { once } from 'node:events';
import { createServer } from 'node:net';

/** A port nothing listens on right now (the OS's pick for port 0), for a server that must be told its port. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}
