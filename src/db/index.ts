export {
  createDatabase,
  isPostgresUrl,
  migrateToLatest,
  type DatabaseEngine,
  type DatabaseHandle,
  type DatabaseOptions,
} from './create-database.js';
export type {
  A2aTasksTable,
  BudgetAccountsTable,
  A2aPushConfigsTable,
  A2aPushDeliveriesTable,
  A2aPushDeliveryStatus,
  Database,
  MissionExecutionsTable,
  MissionsTable,
  RunsTable,
  RunStepsTable,
  RiskEventsTable,
  SourceLeasesTable,
  UsageDailyTable,
  UsageRecordsTable,
  InboxItemsTable,
  InboxSourceKind,
  InboxStatus,
} from './schema.js';
export { isUniqueViolation } from './driver-errors.js';
export { isConnectionLoss, retryWhileUnreachable } from './connection-errors.js';
export {
  createDirectWrites,
  createGroupCommit,
  type GroupCommitOptions,
  type Write,
  type WriteOptions,
  type WriteQueue,
} from './write-queue.js';
export { prepareQuery, type PreparedQuery } from './prepared-query.js';
export {
  afterFailedAttempt,
  createLeasedWorker,
  type LeaseClaim,
  type LeasedLane,
  type LeasedWorker,
  type LeasedWorkerOptions,
  type LeaseQueue,
  type RetryPolicy,
} from './leased-worker.js';
export { createBatcher, type Batcher, type BatcherOptions } from './batcher.js';
