import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamResponse, type Task } from '@a2a-js/sdk';
import { legacyPushNotificationToV1StreamResponse } from '@a2a-js/sdk/compat/v0_3';

// Loopback is private: the test receiver is reachable only because it is listed here.
/** Quick retries for tests. */
export const PUSH_YAML = `
a2a:
  push_notifications:
    allow_private: ["127.0.0.1"]
    backoff_seconds: 0.1
    max_backoff_seconds: 0.3
    lease_seconds: 1
    timeout_ms: 2000
    poll_interval_ms: 100
    max_attempts: 200
`;

export interface ReceivedPush {
  path: string;
  headers: IncomingHttpHeaders;
  /** What the receiver answered. */
  status: number;
  body: string;
}

/** A loopback webhook that records every push notification; it answers `status` (503 to make the gateway retry). */
export interface PushReceiver {
  url: string;
  status: number;
  received: ReceivedPush[];
  /** The tasks of the notifications it accepted on `path`, parsed as a v1.0 or a v0.3 peer would. */
  acceptedTasks(path: string, version: '1.0' | '0.3'): Task[];
  close(): Promise<void>;
}

export async function startPushReceiver(): Promise<PushReceiver> {
  const received: ReceivedPush[] = [];
  const receiver: PushReceiver = {
    url: '',
    status: 200,
    received,
    acceptedTasks(path, version) {
      return received
        .filter((push) => push.path === path && push.status === 200)
        .map((push) => {
          const json: unknown = JSON.parse(push.body);
          const event =
            version === '1.0' ? StreamResponse.fromJSON(json) : legacyPushNotificationToV1StreamResponse(json);
          if (event.payload?.$case !== 'task') throw new Error(`expected a task, got ${event.payload?.$case}`);
          return event.payload.value;
        });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const status = receiver.status;
      received.push({ path: request.url ?? '', headers: request.headers, status, body });
      response.writeHead(status).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
