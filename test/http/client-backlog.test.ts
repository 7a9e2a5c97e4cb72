import { createServer, connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { parseSendQueues, readProcTcpTable, tcpConnectionKey } from '../../src/http/client-backlog/index.js';

describe('tcpConnectionKey', () => {
  it('names IPv4, IPv4-mapped and IPv6 connections as the kernel tables print them', () => {
    expect(tcpConnectionKey({ address: '127.0.0.1', port: 8080 }, { address: '10.1.2.3', port: 51000 })).toEqual({
      table: 'tcp',
      key: '0100007F:1F90 0302010A:C738',
    });
    expect(
      tcpConnectionKey({ address: '::ffff:127.0.0.1', port: 80 }, { address: '::ffff:127.0.0.1', port: 1 }),
    ).toEqual({
      table: 'tcp6',
      key: '0000000000000000FFFF00000100007F:0050 0000000000000000FFFF00000100007F:0001',
    });
    expect(tcpConnectionKey({ address: '::1', port: 80 }, { address: 'fe80::1%eth0', port: 2 })).toEqual({
      table: 'tcp6',
      key: '00000000000000000000000001000000:0050 000080FE000000000000000001000000:0002',
    });
    expect(tcpConnectionKey({ address: undefined, port: 80 }, { address: '::1', port: 2 })).toBeUndefined();
  });
});

describe.runIf(process.platform === 'linux')('the kernel table on Linux', () => {
  it("shows bytes a client that does not read leaves unacknowledged in this process's send queue", async () => {
    const server = createServer((socket) => socket.pause());
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    const client: Socket = connect(port, '127.0.0.1');
    await once(client, 'connect');
    try {
      // 8 MiB: more than a paused peer's receive buffer takes, so the rest waits in our kernel's send queue.
      client.write(Buffer.alloc(8 * 1024 * 1024));
      const key = tcpConnectionKey(
        { address: client.localAddress, port: client.localPort },
        { address: client.remoteAddress, port: client.remotePort },
      )!;
      const queues = new Map<string, number>();
      await expect
        .poll(
          async () => {
            parseSendQueues(await readProcTcpTable(key.table), new Set([key.key]), queues);
            return queues.get(key.key) ?? 0;
          },
          { timeout: 10_000, interval: 20 },
        )
        .toBeGreaterThan(64 * 1024);
    } finally {
      client.destroy();
      server.close();
    }
  });
});
