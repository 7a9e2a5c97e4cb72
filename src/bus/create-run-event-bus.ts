import { createInProcessRunEventBus } from './in-process-run-event-bus.js';
import { createRedisRunEventBus } from './redis-run-event-bus.js';
import type { RunEventBus, RunEventBusOptions } from './run-event-bus.js';

/** The one place that picks the bus: Redis when a URL is configured, otherwise in-process. */
export function createRunEventBus(options: RunEventBusOptions = {}): RunEventBus {
  const logLimit = options.logLimit;
  if (logLimit !== undefined && (!Number.isInteger(logLimit) || logLimit < 1)) {
    throw new RangeError(`logLimit must be a positive integer, got ${logLimit}`);
  }
  if (options.redisUrl) return createRedisRunEventBus({ ...options, redisUrl: options.redisUrl });
  return createInProcessRunEventBus(options);
}
