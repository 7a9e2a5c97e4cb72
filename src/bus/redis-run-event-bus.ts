import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import { UnavailableError } from '../errors.js';
import { ControlHandlers } from './control-handlers.js';
import { isoNow } from '../ids.js';
import { toRunEvent, type RunEvent, type RunEventBody } from './events.js';
import { IN_PROCESS_RETENTION_MS } from './in-process-run-event-bus.js';
import { LocalRunLogs } from './local-run-logs.js';
import { RedisControlChannel } from './redis-control-channel.js';
import { RedisRunStream } from './redis-run-stream.js';
import { subscribeToRedisRun } from './redis-run-subscription.js';
import { createRedisKeys } from './redis-stream-codec.js';
import { RedisStreamTailer } from './redis-stream-tailer.js';
import {
  DEFAULT_KEY_PREFIX,
  DEFAULT_LOG_LIMIT,
  DEFAULT_RETENTION_MS,
  type RunControlCommand,
  type RunEventBus,
  type RunEventBusOptions,
  type SubscribeOptions,
} from './run-event-bus.js';

export interface RedisRunEventBusOptions extends Omit<RunEventBusOptions, 'redisUrl'> {
  redisUrl: string;
  /** TTL of a run's stream while it runs, refreshed by each non-delta event. Default 24 hours. */
  activeTtlMs?: number;
  /** Upper bound of one XREAD BLOCK; the reader is woken earlier whenever the set of runs changes. Default 5 s. */
  blockMs?: number;
}

const PING_TIMEOUT_MS = 1000;

/**
 * QUIT lets commands in flight finish (disconnect() would reject them, and ioredis does not catch its own
 * re-subscribe after a reconnect); but while Redis is unreachable QUIT would just wait in the offline queue.
 */
async function endConnection(connection: Redis): Promise<void> {
  if (connection.status !== 'ready') return connection.disconnect();
  await connection.quit().catch(() => connection.disconnect());
}

/**
 * The scaled bus: one Redis stream per run (Redis 7+, for `XADD … 0-*`) and one pub/sub channel for control.
 * Three connections per process: commands (auto-pipelined), blocking reads, and the control subscription.
 * The runs this process publishes are read here from memory (LocalRunLogs); Redis serves the other processes.
 */
export function createRedisRunEventBus(options: RedisRunEventBusOptions): RunEventBus {
  const logLimit = options.logLimit ?? DEFAULT_LOG_LIMIT;
  const onError = options.onError ?? (() => undefined);
  const keyPrefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const keys = createRedisKeys(keyPrefix);
  // Named connections show up in CLIENT LIST, so an operator can tell what each one is for.
  const command = new (loadRedis())(options.redisUrl, {
    enableAutoPipelining: true,
    connectionName: `${keyPrefix}bus-commands`,
  });
  // Blocking and subscribed connections wait for Redis as long as it takes rather than failing requests.
  const blocking = command.duplicate({
    connectionName: `${keyPrefix}bus-reader`,
    maxRetriesPerRequest: null,
    autoResendUnfulfilledCommands: false, // the reader re-issues its XREAD itself, from the last seq it has
    enableAutoPipelining: false,
  });
  const subscriber = command.duplicate({
    connectionName: `${keyPrefix}bus-control`,
    maxRetriesPerRequest: null,
    enableAutoPipelining: false,
  });
  for (const connection of [command, blocking, subscriber]) connection.on('error', onError);

  const stream = new RedisRunStream({
    redis: command,
    keys,
    logLimit,
    retentionMs: options.retentionMs ?? DEFAULT_RETENTION_MS,
    activeTtlMs: options.activeTtlMs ?? 24 * 60 * 60_000,
  });
  const tailer = new RedisStreamTailer({ blocking, command, keys, logLimit, onError, blockMs: options.blockMs });
  const local = new LocalRunLogs(logLimit, IN_PROCESS_RETENTION_MS);
  const handlers = new ControlHandlers(onError);
  const control = new RedisControlChannel({ subscriber, command, channel: keys.controlChannel, handlers, onError });
  let closed = false;

  function assertOpen(): void {
    if (closed) throw new UnavailableError('The run event bus is closed', 'bus_closed');
  }

  async function* subscribeRemote(runId: string, subscribeOptions?: SubscribeOptions): AsyncGenerator<RunEvent> {
    assertOpen();
    yield* subscribeToRedisRun({ stream, tailer, logLimit }, runId, subscribeOptions);
  }

  async function ping(): Promise<boolean> {
    // While (re)connecting after a failure Redis is unreachable; a first connect may still answer in time.
    if (closed || ['reconnecting', 'close', 'end'].includes(command.status)) return false;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS);
      timer.unref();
    });
    const alive = Promise.all([command.ping(), control.ready]).then(
      ([pong, subscribed]) => pong === 'PONG' && subscribed,
      () => false,
    );
    try {
      return await Promise.race([alive, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    logLimit,
    async publish(runId: string, body: RunEventBody, seq?: number, at?: string): Promise<RunEvent> {
      assertOpen();
      if (seq === undefined) return stream.append(runId, body);
      const event = toRunEvent(body, runId, seq, at ?? isoNow());
      local.push(event);
      await stream.append(runId, body, seq, event.at);
      return event;
    },
    subscribe(runId: string, subscribeOptions?: SubscribeOptions): AsyncIterable<RunEvent> {
      const own = closed ? undefined : local.read(runId, subscribeOptions?.afterSeq ?? 0, subscribeOptions?.signal);
      return own ?? subscribeRemote(runId, subscribeOptions);
    },
    history: (runId) => stream.history(runId),
    async sendControl(runId: string, controlCommand: RunControlCommand): Promise<void> {
      assertOpen();
      await control.send(runId, controlCommand);
    },
    onControl: (handler) => handlers.add(handler),
    ping,
    leave(error: Error): void {
      local.fail(error);
      tailer.fail(error);
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      tailer.close();
      local.close();
      control.close();
      handlers.clear();
      // disconnect() rather than quit(): a pending XREAD BLOCK would hold QUIT back until it times out.
      blocking.disconnect();
      await Promise.all([endConnection(subscriber), endConnection(command)]);
    },
  };
}

/** ioredis loads when Redis is configured, not at every start (start-up time and idle memory). */
function loadRedis(): typeof Redis {
  return (createRequire(import.meta.url)('ioredis') as typeof import('ioredis')).Redis;
}
