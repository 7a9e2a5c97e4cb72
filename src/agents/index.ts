export { createAgentRegistry, type AgentRegistry, type RegisteredAgent } from './agent-registry.js';
export { createAgentStore, type AgentStore } from './agent.store.js';
export { createRunService, type RunService, type RunServiceOptions } from './run.service.js';
export type { RunHandle, StartRunRequest } from './run-handle.js';
export type { AttachOptions } from './run-attach.js';
export type { RunControlResult } from './run-commands.js';
export type { RunControlCommand } from '../bus/index.js';
export { createRunStore, type RunStore } from './run.store.js';
export { createSessionService, SESSION_ID_PATTERN, type SessionService } from './session.service.js';
export { createSessionStore, type SessionRecord, type SessionStore } from './session.store.js';
export {
  cancelledError,
  CLIENT_CLOSED,
  createRunControl,
  type RunControl,
  type RunControlStatus,
  type RunController,
} from './run-control.js';
export { mergeSessionHistory, type MergedConversation } from './merge-session-history.js';
export type { RunPricing } from './run-recorder.js';
export type { ModelUsageRecord, RiskEventRecord, UsageSink } from './usage-sink.js';
export type { RunTiming } from './run-context.js';
export type { RunLogger } from './run-logger.js';
export type { RunResult, RunUsage } from './run-result.js';
/** The runtime's message, tool and finish-reason types, for adapters that may not import llm/ directly. */
export type { ChatMessage, FinishReason, ToolDefinition } from '../llm/index.js';
export { isActiveRunStatus, RUN_STATUSES } from './run.types.js';
export type {
  AgentRunCounts,
  ListRunsFilter,
  ModelPromptLog,
  PromptLog,
  RunRecord,
  RunStatus,
  StepRecord,
  ToolPromptLog,
} from './run.types.js';
