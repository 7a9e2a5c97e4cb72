import {
  readProcTcpTable,
  parseSendQueues,
  type TcpConnectionKey,
  type TcpTable,
  type TcpTableReader,
} from './proc-net-tcp.js';

/** What the poller needs of a socket: Node's own byte counts and whether it is gone. */
export interface PolledSocket {
  readonly bytesWritten: number;
  readonly writableLength: number;
  readonly destroyed: boolean;
}

export interface SendQueuePollerOptions {
  read?: TcpTableReader;
  /**
   * The first sample is taken at once; the delay to the next doubles from 5 ms for each sample that finds the
   * waiter still behind, up to `fastDelayMs`, and is `slowDelayMs` once it has waited `slowAfterMs` (a client that
   * stopped reading). Defaults 40 ms, 250 ms, 1 s.
   */
  fastDelayMs?: number;
  slowDelayMs?: number;
  slowAfterMs?: number;
}

/**
 * Reads the kernel's TCP tables for every socket that waits, in one read per table and round: how many of the
 * bytes written to a socket its peer acknowledged. A client that keeps reading is sampled again within
 * milliseconds; one that stopped, every `slowDelayMs`, so stalled clients cost a few reads a second in all.
 */
export interface SendQueuePoller {
  /**
   * Samples `connection` until `onSample(acked)` returns true, the socket is destroyed, or the kernel no longer
   * lists the connection (or cannot be read: then the wait ends at once, as without this poller). `acked` is a
   * lower bound of the bytes the peer acknowledged.
   */
  until(connection: TcpConnectionKey, socket: PolledSocket, onSample: (acked: number) => boolean): Promise<void>;
}

interface Waiter {
  connection: TcpConnectionKey;
  socket: PolledSocket;
  onSample: (acked: number) => boolean;
  resolve: () => void;
  since: number;
  delayMs: number;
  dueAt: number;
}

export function createSendQueuePoller(options: SendQueuePollerOptions = {}): SendQueuePoller {
  const { read = readProcTcpTable, fastDelayMs = 40, slowDelayMs = 250, slowAfterMs = 1_000 } = options;
  const waiters = new Set<Waiter>();
  let unreadable = false;
  let reading = false;
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;

  const finish = (waiter: Waiter) => {
    waiters.delete(waiter);
    waiter.resolve();
  };

  const schedule = () => {
    if (reading || waiters.size === 0) return;
    let dueAt = Infinity;
    for (const waiter of waiters) dueAt = Math.min(dueAt, waiter.dueAt);
    if (timer && timerAt <= dueAt) return;
    clearTimeout(timer);
    timerAt = dueAt;
    timer = setTimeout(() => void sample(), Math.max(0, dueAt - Date.now()));
    timer.unref();
  };

  const sample = async () => {
    timer = undefined;
    timerAt = Infinity;
    reading = true;
    // Counted before the read: bytes written while it runs only make `acked` smaller (never too large).
    const round = [...waiters].map((waiter) => ({
      waiter,
      handed: waiter.socket.bytesWritten - waiter.socket.writableLength,
    }));
    const wanted = new Map<TcpTable, Set<string>>();
    for (const { waiter } of round) {
      const keys = wanted.get(waiter.connection.table) ?? new Set<string>();
      keys.add(waiter.connection.key);
      wanted.set(waiter.connection.table, keys);
    }
    const queues = new Map<string, number>();
    try {
      await Promise.all([...wanted].map(async ([table, keys]) => parseSendQueues(await read(table), keys, queues)));
    } catch {
      // No /proc (not Linux, a sandbox): nothing to learn; writes go on as Node's own buffer allows.
      unreadable = true;
    }
    reading = false;
    const now = Date.now();
    for (const { waiter, handed } of round) {
      const queued = queues.get(waiter.connection.key);
      if (unreadable || waiter.socket.destroyed || queued === undefined || waiter.onSample(handed - queued)) {
        finish(waiter);
        continue;
      }
      waiter.delayMs = now - waiter.since >= slowAfterMs ? slowDelayMs : Math.min(waiter.delayMs * 2 || 5, fastDelayMs);
      waiter.dueAt = now + waiter.delayMs;
    }
    schedule();
  };

  return {
    until(connection, socket, onSample) {
      if (unreadable) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const now = Date.now();
        waiters.add({ connection, socket, onSample, resolve, since: now, delayMs: 0, dueAt: now });
        schedule();
      });
    },
  };
}
