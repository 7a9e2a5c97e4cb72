import type { AppError } from '../../errors.js';
import type { FinishReason, ToolCall } from '../../llm/index.js';

export interface RunUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

interface RunResultBase {
  runId: string;
  /** Every text the agent produced (for a failed run: until it failed). */
  output: string;
  usage: RunUsage;
  costUsd: number;
  steps: number;
  /** Milliseconds the run waited on model and tool calls: the request's time minus this is the gateway's overhead. */
  upstreamMs: number;
}

/** How a run ended: the promise of a RunHandle resolves to this and never rejects. */
export type RunResult =
  | (RunResultBase & {
      status: 'completed';
      finishReason: FinishReason;
      /** The calls of the client's own tools the run ended with (finish reason `tool_calls`): the client answers them. */
      clientToolCalls?: ToolCall[];
    })
  | (RunResultBase & { status: 'failed' | 'cancelled'; error: AppError });
