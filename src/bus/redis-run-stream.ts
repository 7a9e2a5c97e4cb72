import type { Redis } from 'ioredis';
import { UnavailableError } from '../errors.js';
import { isoNow } from '../ids.js';
import { isTerminalEvent, toRunEvent, type RunEvent, type RunEventBody } from './events.js';
import {
  decodeStreamEntry,
  encodeStreamFields,
  seqFromStreamId,
  streamIdFromSeq,
  type RedisKeys,
  type StreamEntry,
} from './redis-stream-codec.js';

export interface RedisRunStreamConfig {
  redis: Redis;
  keys: RedisKeys;
  logLimit: number;
  retentionMs: number;
  /** Refreshed on every non-delta event, so a run whose process died mid-run still expires. */
  activeTtlMs: number;
}

/** Non-blocking reads and writes of run streams (one Redis stream per run), on the shared command connection. */
export class RedisRunStream {
  private readonly config: RedisRunStreamConfig;

  constructor(config: RedisRunStreamConfig) {
    this.config = config;
  }

  /**
   * Adds the event as entry `0-<seq>` (`0-*` without a seq: after the stream's last entry). A seq given by the
   * run's publisher survives a Redis that restarted empty: numbering goes on, and a reader sees the gap.
   */
  async append(runId: string, body: RunEventBody, seq?: number, at = isoNow()): Promise<RunEvent> {
    const { redis, keys, logLimit } = this.config;
    const key = keys.events(runId);
    const entryId = seq === undefined ? '0-*' : streamIdFromSeq(seq);
    // Plain commands only (no MULTI/pipeline objects): auto-pipelining keeps them in call order.
    const added = redis.xadd(key, 'MAXLEN', '~', logLimit, entryId, ...encodeStreamFields(body, at));
    const ttlMs = this.ttlAfter(body);
    const expired = ttlMs === undefined ? undefined : redis.pexpire(key, ttlMs);
    const [id] = await Promise.all([added, expired]).catch((error: unknown) => {
      if (!String((error as Error).message).includes('Invalid stream ID')) throw error;
      throw new UnavailableError(
        'The Redis run event bus needs Redis 7 or newer (XADD with an id of 0-*)',
        'redis_too_old',
      );
    });
    return toRunEvent(body, runId, seqFromStreamId(id!), at);
  }

  /** The newest events after `afterSeq`, at most logLimit of them (MAXLEN ~ may keep a few more), oldest first. */
  async newestAfter(runId: string, afterSeq: number): Promise<RunEvent[]> {
    const { redis, keys, logLimit } = this.config;
    const start = afterSeq > 0 ? `(${streamIdFromSeq(afterSeq)}` : '-';
    const entries = (await redis.xrevrange(keys.events(runId), '+', start, 'COUNT', logLimit)) as StreamEntry[];
    return entries.reverse().map((entry) => decodeStreamEntry(runId, entry));
  }

  /** Events with afterSeq < seq <= toSeq, oldest first. */
  async between(runId: string, afterSeq: number, toSeq: number): Promise<RunEvent[]> {
    const { redis, keys } = this.config;
    const entries = (await redis.xrange(
      keys.events(runId),
      `(${streamIdFromSeq(afterSeq)}`,
      streamIdFromSeq(toSeq),
    )) as StreamEntry[];
    return entries.map((entry) => decodeStreamEntry(runId, entry));
  }

  async last(runId: string): Promise<RunEvent | undefined> {
    const { redis, keys } = this.config;
    const [entry] = (await redis.xrevrange(keys.events(runId), '+', '-', 'COUNT', 1)) as StreamEntry[];
    return entry && decodeStreamEntry(runId, entry);
  }

  async history(runId: string): Promise<RunEvent[]> {
    return this.newestAfter(runId, 0);
  }

  private ttlAfter(body: RunEventBody): number | undefined {
    if (isTerminalEvent(body)) return this.config.retentionMs;
    // Text deltas are the bulk of the traffic; the step and run events around them refresh the TTL.
    return body.type === 'text-delta' ? undefined : this.config.activeTtlMs;
  }
}
