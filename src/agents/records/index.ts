export { createRunStore, type RunStore } from './run.store.js';
export type { RunPricing } from './run-recorder.js';
export type { ModelUsageRecord, RiskEventRecord, UsageSink } from './usage-sink.js';
export { isActiveRunStatus } from './run.types.js';
export type {
  AgentRunCounts,
  ListRunsFilter,
  ChangedRunsFilter,
  ModelPromptLog,
  PromptLog,
  RunRecord,
  RunStatus,
  RunTrigger,
  StepRecord,
  ToolPromptLog,
} from './run.types.js';
export type { RunSeriesBucket, RunSeriesFilter } from './run-counts.store.js';
