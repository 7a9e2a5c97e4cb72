import type { Redis } from 'ioredis';
import type { ListenerConfig } from '../../../config/index.js';
import { asError, type Deliver, type OpenConnection } from './listener-connection.js';
import { openListenerRedis } from './open-listener-redis.js';

type RedisStreamListener = Extract<ListenerConfig, { source: 'redis-stream' }>;

/** One stream entry as Redis returns it: its id and flat field/value list (null once the entry was deleted). */
type StreamEntry = [id: string, fields: string[] | null];

/**
 * Reads a Redis stream through a consumer group (XREADGROUP), the replica being the consumer, so each
 * entry reaches one replica. An entry is acknowledged (XACK) only once stored; entries a consumer read
 * and never acknowledged (it died, or storing failed) are read again by it on reconnection or claimed by
 * another replica after claim_idle_seconds (XAUTOCLAIM). The entry id dedupes a second delivery.
 */
export const openRedisStreamConnection: OpenConnection<RedisStreamListener> = async ({
  listener,
  deliver,
  logger,
  replicaId,
}) => {
  const { redis, closed, lastError, fail } = openListenerRedis(listener.url, listener.name);
  const group = listener.group ?? `agent-gateway-${listener.name}`;

  try {
    await redis.connect();
    // A new group starts at the stream's end, as a new subscription would; an existing one keeps its position.
    await redis.xgroup('CREATE', listener.stream, group, '$', 'MKSTREAM').catch((error: unknown) => {
      if (!/BUSYGROUP/.test(asError(error, '').message)) throw error;
    });
  } catch (error) {
    redis.disconnect();
    throw asError(lastError() ?? error, 'redis connection failed');
  }

  const reader = createStreamReader(redis, listener, group, replicaId, deliver);
  void reader.run().catch((error: unknown) => {
    fail(asError(error, 'redis stream read failed'));
    if (!reader.stopping)
      logger.error(
        { trigger: `listener:${listener.name}`, err: error },
        'redis stream read or store failed; reconnecting (unacknowledged entries stay pending and are read again)',
      );
    redis.disconnect();
  });
  return {
    closed,
    async close() {
      reader.stopping = true;
      redis.disconnect();
      await closed;
    },
  };
};

function createStreamReader(
  redis: Redis,
  listener: RedisStreamListener,
  group: string,
  consumer: string,
  deliver: Deliver,
) {
  const claimIdleMs = Math.round(listener.claim_idle_seconds * 1000);
  // Short enough blocking reads that abandoned entries are claimed about as soon as they are due.
  const blockMs = Math.max(10, Math.min(5000, Math.floor(claimIdleMs / 2)));
  const reader = {
    stopping: false,
    async run(): Promise<void> {
      // Entries this consumer read before (a restarted replica keeps its id) and never acknowledged.
      for (;;) {
        const own = await read('0');
        await handle(own);
        if (own.length < listener.batch) break;
      }
      let claimedAt = 0;
      while (!reader.stopping) {
        if (Date.now() - claimedAt >= blockMs) {
          claimedAt = Date.now();
          await claimAbandoned();
        }
        await handle(await read('>', blockMs));
      }
    },
  };

  async function read(from: '0' | '>', block?: number): Promise<StreamEntry[]> {
    const args = block === undefined ? [] : ['BLOCK', block];
    const reply = (await redis.xreadgroup(
      'GROUP',
      group,
      consumer,
      'COUNT',
      listener.batch,
      ...(args as ['BLOCK', number]),
      'STREAMS',
      listener.stream,
      from,
    )) as [string, StreamEntry[]][] | null;
    return reply?.[0]?.[1] ?? [];
  }

  async function claimAbandoned(): Promise<void> {
    let cursor = '0-0';
    do {
      const [next, entries] = (await redis.xautoclaim(
        listener.stream,
        group,
        consumer,
        claimIdleMs,
        cursor,
        'COUNT',
        listener.batch,
      )) as [string, StreamEntry[]];
      await handle(entries);
      cursor = next;
    } while (cursor !== '0-0' && !reader.stopping);
  }

  /** Stores the entries in order and acknowledges those stored, also when a later one fails. */
  async function handle(entries: StreamEntry[]): Promise<void> {
    const stored: string[] = [];
    try {
      for (const [id, fields] of entries) {
        // A pending entry deleted from the stream (XDEL, trimming) has nothing left to store.
        if (fields !== null) await deliver({ body: bodyOf(fields, listener.field), messageId: id });
        stored.push(id);
      }
    } finally {
      if (stored.length > 0) await redis.xack(listener.stream, group, ...stored);
    }
  }
  return reader;
}

/** The JSON message: the named field's value, or the entry's fields as one object. */
function bodyOf(fields: string[], field: string | undefined): string {
  const entry: Record<string, string> = {};
  for (let index = 0; index + 1 < fields.length; index += 2) entry[fields[index]] = fields[index + 1];
  if (field === undefined) return JSON.stringify(entry);
  return entry[field] ?? '';
}
