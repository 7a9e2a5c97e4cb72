export { isTerminalEvent, toRunEvent, type RunEvent, type RunEventBody, type RunSource } from './events.js';
export { isSyncRunEventSource, NOT_YET, type SyncRunEventSource } from './run-event-source.js';
export { createRunEventBus } from './create-run-event-bus.js';
export { createBusErrorLog } from './create-bus-error-log.js';
export {
  DEFAULT_KEY_PREFIX,
  DEFAULT_LOG_LIMIT,
  DEFAULT_RETENTION_MS,
  type RunControlCommand,
  type RunControlHandler,
  type RunEventBus,
  type RunEventBusOptions,
  type SubscribeOptions,
} from './run-event-bus.js';
export { isRunControlCommand, RUN_CONTROL_COMMANDS } from './control-handlers.js';
export {
  createRedisRateLimitCounter,
  type RedisRateLimitCounterOptions,
  type SharedRateLimitCounter,
} from './redis-rate-limit-counter.js';
