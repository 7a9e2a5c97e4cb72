export { createAgentRegistry, type AgentRegistry, type RegisteredAgent } from './registry/index.js';
export { createAgentStore, type AgentStore } from './registry/index.js';
export { createRunService, type RunService, type RunServiceOptions } from './run.service.js';
export type { BudgetState, TokenBudget } from './budgets/index.js';
export type { RunHandle, StartRunRequest } from './control/index.js';
export type { AttachOptions } from './control/index.js';
export type { RunControlResult } from './control/index.js';
export type { RunControlCommand } from '../bus/index.js';
export { createRunStore, type RunStore } from './records/index.js';
export { createSessionService, SESSION_ID_PATTERN, type SessionService } from './sessions/index.js';
export { createSessionStore, type SessionRecord, type SessionStore } from './sessions/index.js';
export {
  cancelledError,
  CLIENT_CLOSED,
  CLIENT_STALLED,
  createRunControl,
  type RunControl,
  type RunControlStatus,
  type RunController,
} from './control/index.js';
export { mergeSessionHistory, type MergedConversation } from './sessions/index.js';
export type { RunPricing } from './records/index.js';
export type { ModelUsageRecord, RiskEventRecord, UsageSink } from './records/index.js';
export type { RunTiming } from './runtime/index.js';
export type { RunResult, RunUsage } from './runtime/index.js';
/** The runtime's message, tool and finish-reason types, for adapters that may not import llm/ directly. */
export type {
  ChatMessage,
  FinishReason,
  ModelCallOptions,
  ResponseFormat,
  ToolCall,
  ToolChoice,
  ToolDefinition,
} from '../llm/index.js';
export { isActiveRunStatus } from './records/index.js';
export type { RunSeriesBucket, RunSeriesFilter } from './records/index.js';
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
} from './records/index.js';
