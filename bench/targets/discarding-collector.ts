import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An OTLP/HTTP receiver on loopback that accepts every export and discards it, counting them. */
export async function startDiscardingCollector(): Promise<{ url: string; exports(): number; close(): void }> {
  let exports = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      exports += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports: () => exports,
    close: () => server.close(),
  };
}
