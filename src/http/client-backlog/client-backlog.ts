import type { Socket } from 'node:net';
import { tcpConnectionKey } from './proc-net-tcp.js';
import { createSendQueuePoller, type SendQueuePoller } from './send-queue-poller.js';

/**
 * How far behind the client on a socket is: bytes written to the socket that its TCP stack has not
 * acknowledged. Node's own buffer is only the first of those bytes: the kernel takes several MB more of a
 * client that stopped reading (Linux grows a loopback socket's send buffer to net.ipv4.tcp_wmem's 4 MB), and
 * a run that streams to it would read that much more of its upstream and keep its text.
 */
export interface ClientBacklog {
  /** Undefined while at most the limit is unacknowledged; else resolves once it is again, or the socket closes. */
  settled(): Promise<void> | undefined;
}

/** The backlog's limit for a client that holds a run back; the run's flow window (run-flow.ts) comes on top. */
export const CLIENT_BACKLOG_BYTES = 256 * 1024;

/** The most a client that keeps up may be ahead of its last sample (one that stops reading then costs this once). */
const MAX_BUDGET_BYTES = 4 * 1024 * 1024;

let sharedPoller: SendQueuePoller | undefined;

/**
 * Watches `socket` through the kernel's TCP tables (`/proc/self/net/tcp`, Linux). Elsewhere, or for a socket
 * without addresses, settled() is always undefined: the kernel's buffers count as delivered, as before.
 */
export function watchClientBacklog(
  socket: Socket,
  limitBytes = CLIENT_BACKLOG_BYTES,
  poller: SendQueuePoller | undefined = process.platform === 'linux'
    ? (sharedPoller ??= createSendQueuePoller())
    : undefined,
): ClientBacklog {
  const connection =
    poller &&
    tcpConnectionKey(
      { address: socket.localAddress, port: socket.localPort },
      { address: socket.remoteAddress, port: socket.remotePort },
    );
  if (!poller || !connection) return { settled: () => undefined };
  // Bytes the client acknowledged, as of the last sample; the socket's count only grows, so this never goes back.
  let acked = 0;
  // How far ahead the writer may go before the next sample: doubled by each sample that finds the client caught
  // up, back to the limit once one finds it behind. A read of the kernel's table costs milliseconds with a few
  // thousand sockets, so a client that keeps up is sampled every few MB, not every 256 KiB.
  let budget = limitBytes;
  let waiting: Promise<void> | undefined;
  const ahead = () => socket.bytesWritten - acked;
  return {
    settled() {
      if (waiting) return waiting;
      if (socket.destroyed || ahead() <= budget) return undefined;
      waiting = poller
        .until(connection, socket, (sample) => {
          const caughtUp = ahead() - (sample - acked) <= limitBytes / 4;
          acked = Math.max(acked, sample);
          budget = caughtUp ? Math.min(budget * 2, MAX_BUDGET_BYTES) : limitBytes;
          return socket.destroyed || ahead() <= budget;
        })
        .finally(() => {
          waiting = undefined;
        });
      return waiting;
    },
  };
}
