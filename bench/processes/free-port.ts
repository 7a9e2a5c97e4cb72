import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A port that was free a moment ago. Start-up timing needs the port before the process prints it,
 * so that /healthz can be polled from the instant of spawn.
 */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
