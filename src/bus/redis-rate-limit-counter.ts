import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';

/** How long a request may wait on a counter before the limiter lets it through uncounted. */
const COMMAND_TIMEOUT_MS = 500;

// Reads every counter, refuses at the first that is full, else takes one request on each request counter:
// one script, so concurrent requests on every replica see each other's takes (no read-then-write race).
const TAKE = `
local window = tonumber(ARGV[1])
local used, ttl = {}, {}
local refused = 0
for i = 1, #KEYS do
  used[i] = tonumber(redis.call('GET', KEYS[i]) or '0')
  ttl[i] = redis.call('PTTL', KEYS[i])
  if ttl[i] < 0 then ttl[i] = window end
  local limit, requests = tonumber(ARGV[2 * i]), ARGV[2 * i + 1] == '1'
  if refused == 0 and ((requests and used[i] + 1 > limit) or ((not requests) and used[i] >= limit)) then refused = i end
end
if refused == 0 then
  for i = 1, #KEYS do
    if ARGV[2 * i + 1] == '1' then
      used[i] = redis.call('INCR', KEYS[i])
      if redis.call('PTTL', KEYS[i]) < 0 then redis.call('PEXPIRE', KEYS[i], window) ttl[i] = window end
    end
  end
end
local out = { refused }
for i = 1, #KEYS do out[#out + 1] = used[i]; out[#out + 1] = ttl[i] end
return out
`;

const ADD = `
for i = 1, #KEYS do
  redis.call('INCRBY', KEYS[i], ARGV[2])
  if redis.call('PTTL', KEYS[i]) < 0 then redis.call('PEXPIRE', KEYS[i], ARGV[1]) end
end
return 0
`;

/** The shape http/ declares for its counters (a shape, so bus/ needs nothing from http/). */
export interface SharedRateLimitCounter {
  take(
    checks: readonly { key: string; limit: number; kind: 'requests' | 'tokens' }[],
  ): Promise<{ refused?: number; windows: { used: number; resetMs: number }[] }>;
  add(keys: readonly string[], amount: number): Promise<void>;
  close(): Promise<void>;
}

interface CounterCommands {
  rateLimitTake(keys: number, ...args: (string | number)[]): Promise<number[]>;
  rateLimitAdd(keys: number, ...args: (string | number)[]): Promise<number>;
}

export interface RedisRateLimitCounterOptions {
  redisUrl: string;
  windowMs: number;
  /** Prefix of every counter's key. */
  keyPrefix?: string;
  onError(error: Error): void;
}

/**
 * Rate-limit counters in Redis, shared by every replica: a minute-long window per counter from its first
 * use, checked and taken by one Lua script. A command that finds Redis unreachable fails at once (no
 * retries) or after COMMAND_TIMEOUT_MS; the caller decides what that means for the request.
 */
export function createRedisRateLimitCounter(options: RedisRateLimitCounterOptions): SharedRateLimitCounter {
  const prefix = options.keyPrefix ?? 'agent-gateway:rate-limit:';
  const redis = new (loadRedis())(options.redisUrl, {
    connectionName: `${prefix}counters`,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    commandTimeout: COMMAND_TIMEOUT_MS,
  });
  redis.on('error', (error: Error) => options.onError(error));
  redis.defineCommand('rateLimitTake', { lua: TAKE });
  redis.defineCommand('rateLimitAdd', { lua: ADD });
  const commands = redis as unknown as CounterCommands;

  return {
    async take(checks) {
      if (checks.length === 0) return { windows: [] };
      const args = checks.flatMap((check) => [check.limit, check.kind === 'requests' ? 1 : 0]);
      const reply = await commands.rateLimitTake(
        checks.length,
        ...checks.map((check) => prefix + check.key),
        options.windowMs,
        ...args,
      );
      const windows = checks.map((_check, index) => ({
        used: Number(reply[1 + 2 * index]),
        resetMs: Number(reply[2 + 2 * index]),
      }));
      const refused = Number(reply[0]);
      return refused > 0 ? { refused: refused - 1, windows } : { windows };
    },
    async add(keys, amount) {
      if (keys.length === 0 || amount <= 0) return;
      await commands.rateLimitAdd(keys.length, ...keys.map((key) => prefix + key), options.windowMs, amount);
    },
    async close() {
      if (redis.status !== 'ready') return redis.disconnect();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** ioredis loads when Redis is configured, not at every start (start-up time and idle memory). */
function loadRedis(): typeof Redis {
  return (createRequire(import.meta.url)('ioredis') as typeof import('ioredis')).Redis;
}
