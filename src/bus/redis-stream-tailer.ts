import type { Redis } from 'ioredis';
import {
  decodeStreamEntry,
  seqFromStreamId,
  streamIdFromSeq,
  type RedisKeys,
  type StreamEntry,
} from './redis-stream-codec.js';
import { RunLog } from './run-log.js';
import { createSubscriberLagError } from './subscriber-lag-error.js';

/** This process's live view of one run's stream, shared by all its local subscribers. */
export interface RunTail {
  readonly runId: string;
  /** Undefined until the first subscriber has read the past and knows where live reading starts. */
  log: RunLog | undefined;
  refs: number;
}

export interface RedisStreamTailerConfig {
  /** A connection used for nothing but XREAD BLOCK. */
  blocking: Redis;
  /** The shared command connection, used to CLIENT UNBLOCK the reader when the set of runs changes. */
  command: Redis;
  keys: RedisKeys;
  logLimit: number;
  onError: (error: unknown) => void;
  blockMs?: number;
}

const READ_BATCH = 500;
const UNBLOCK_RETRIES = 20;

/**
 * One XREAD BLOCK loop per process over every run that has local subscribers: a thousand SSE clients on
 * one run cost one Redis read, fanned out through the run's RunLog.
 */
export class RedisStreamTailer {
  private readonly config: RedisStreamTailerConfig;
  private readonly tails = new Map<string, RunTail>();
  private version = 0;
  private readVersion = -1;
  private reading = false;
  private clientId: number | undefined;
  private idleWake: (() => void) | undefined;
  private looping = false;
  private closed = false;

  constructor(config: RedisStreamTailerConfig) {
    this.config = config;
    // A new connection has a new client id; learn it again before the next read.
    config.blocking.on('close', () => {
      this.clientId = undefined;
    });
  }

  acquire(runId: string): RunTail {
    let tail = this.tails.get(runId);
    if (!tail) {
      tail = { runId, log: undefined, refs: 0 };
      this.tails.set(runId, tail);
    }
    tail.refs += 1;
    return tail;
  }

  release(tail: RunTail): void {
    tail.refs -= 1;
    if (tail.refs === 0 && this.tails.get(tail.runId) === tail) {
      this.tails.delete(tail.runId);
      this.changed();
    }
  }

  /** Starts live reading of the tail's stream after `afterSeq`. */
  start(tail: RunTail, afterSeq: number): RunLog {
    tail.log ??= new RunLog(tail.runId, this.config.logLimit, afterSeq);
    // A subscriber that was still reading the past when the bus closed must not wait forever.
    if (this.closed) tail.log.close();
    this.changed();
    if (!this.looping) void this.loop();
    return tail.log;
  }

  /** Ends the readers of every tail with `error` (the process leaves); reading goes on until close(). */
  fail(error: Error): void {
    for (const tail of this.tails.values()) tail.log?.fail(error);
  }

  close(): void {
    this.closed = true;
    for (const tail of this.tails.values()) tail.log?.close();
    this.tails.clear();
    this.idleWake?.();
  }

  private async loop(): Promise<void> {
    this.looping = true;
    let backoffMs = 0;
    while (!this.closed) {
      const watched = [...this.tails.values()].filter((tail) => tail.log && !tail.log.finished);
      if (watched.length === 0) {
        await new Promise<void>((resolve) => (this.idleWake = resolve));
        this.idleWake = undefined;
        continue;
      }
      try {
        await this.readOnce(watched);
        backoffMs = 0;
      } catch (error) {
        if (this.closed) break;
        this.config.onError(error);
        backoffMs = Math.min(backoffMs * 2 || 100, 2000);
        await new Promise((resolve) => setTimeout(resolve, backoffMs).unref());
      }
    }
    this.looping = false;
  }

  private async readOnce(watched: RunTail[]): Promise<void> {
    const { blocking, keys, blockMs = 5000 } = this.config;
    this.clientId ??= await blocking.client('ID');
    const streams = watched.map((tail) => keys.events(tail.runId));
    const ids = watched.map((tail) => streamIdFromSeq(tail.log!.lastSeq));
    this.readVersion = this.version;
    this.reading = true;
    // Without autoResendUnfulfilledCommands ioredis drops (never settles) a command cut off by a lost
    // connection, so a lost connection ends this read and the loop issues a fresh one once reconnected.
    let onClose: (() => void) | undefined;
    const lost = new Promise<null>((resolve) => blocking.once('close', (onClose = () => resolve(null))));
    try {
      const read = blocking.xread('COUNT', READ_BATCH, 'BLOCK', blockMs, 'STREAMS', ...streams, ...ids);
      const reply = await Promise.race([read, lost]);
      for (const [key, entries] of reply ?? []) this.ingest(keys.runIdOf(key), entries);
    } finally {
      blocking.off('close', onClose!);
      this.reading = false;
    }
  }

  private ingest(runId: string, entries: StreamEntry[]): void {
    const tail = this.tails.get(runId);
    const log = tail?.log;
    if (!tail || !log) return;
    for (const entry of entries) {
      const seq = seqFromStreamId(entry[0]);
      if (seq <= log.lastSeq) continue;
      if (seq !== log.lastSeq + 1) {
        // The stream was trimmed past what this process had read, or events never reached Redis (an outage, a
        // restart that lost them): its readers cannot be served without a gap.
        log.fail(createSubscriberLagError(runId, this.config.logLimit));
        this.tails.delete(runId);
        return;
      }
      log.push(decodeStreamEntry(runId, entry));
    }
  }

  /** The set of watched runs changed: make the reader re-issue XREAD with the new set. */
  private changed(): void {
    this.version += 1;
    this.idleWake?.();
    this.unblock(UNBLOCK_RETRIES);
  }

  private unblock(retries: number): void {
    if (!this.reading || this.readVersion === this.version || this.clientId === undefined) return;
    const readVersion = this.readVersion;
    this.config.command.client('UNBLOCK', this.clientId).then(
      (unblocked) => {
        // 0 means the XREAD had not reached Redis yet; try again until it has (or the block times out).
        if (unblocked === 0 && retries > 0 && this.readVersion === readVersion && this.reading) {
          setTimeout(() => this.unblock(retries - 1), 5).unref();
        }
      },
      (error: unknown) => this.config.onError(error),
    );
  }
}
