import type { TraceSpan } from '../telemetry/index.js';
import type { ToolDefinition } from '../llm/index.js';

/** Who calls a tool: the run (for state kept per run) and the call's span (trace context sent out). */
export interface ToolCallContext {
  runId?: string;
  trace?: TraceSpan;
}

/** A tool as the registry holds it: what the model sees plus how to run it. */
export interface RegisteredTool {
  definition: ToolDefinition;
  timeoutMs: number;
  /** Safe to repeat: a run taken over after a crash re-runs a call of it that has no stored result. */
  idempotent?: boolean;
  /**
   * Runs with arguments already validated against `definition.parameters`. May throw anything:
   * the registry turns every failure into a ToolExecutionError.
   */
  run(args: Record<string, unknown>, signal: AbortSignal, call?: ToolCallContext): Promise<string>;
  /** Releases what the tool holds open (connection pools); called when the registry closes. */
  close?(): Promise<void>;
}
