import type { ToolDefinition } from '../llm/index.js';

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
  run(args: Record<string, unknown>, signal: AbortSignal): Promise<string>;
  /** Releases what the tool holds open (connection pools); called when the registry closes. */
  close?(): Promise<void>;
}

/** The slice of a pino logger the registry uses; Fastify's `server.log` fits. */
export interface ToolsLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export const SILENT_LOGGER: ToolsLogger = { info: () => undefined, warn: () => undefined };
