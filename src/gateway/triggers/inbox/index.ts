export { createInboxWorker, type InboxWorker, type InboxWorkerOptions, type InboxWorkerStats } from './inbox-worker.js';
export { computeBackoffSeconds, runHandlers, type HandlerRunResult, type RunHandlersContext } from './run-handlers.js';
export type { InboxItem, InboxLogger, InboxOutcome, InboxRetrySettings, InboxStore, InboxWorkerSettings } from './inbox.types.js';
