export {
  createInboxWorker,
  type InboxLane,
  type InboxWorker,
  type InboxWorkerOptions,
  type InboxWorkerStats,
} from './inbox-worker.js';
export { createInboxStore, type ClaimOptions, type InboxStore, type ListInboxFilter } from './inbox.store.js';
export { runHandlers, type HandlerRunResult, type RunHandlersContext } from './run-handlers.js';
export type {
  InboxItem,
  InboxLaneSettings,
  InboxOutcome,
  InboxRetrySettings,
  InboxSourceKind,
  InboxSourceStats,
  InboxStatus,
  NewInboxItem,
  SourceRef,
} from './inbox.types.js';
