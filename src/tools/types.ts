import type { TraceSpan } from '../telemetry/index.js';
import type { ToolErrorCode } from '../errors.js';
import type { ToolDefinition } from '../llm/index.js';

export interface ToolExecutionOptions {
  signal?: AbortSignal;
  /** The run calling the tool, for tools that keep state per run. */
  runId?: string;
  /** The call's `execute_tool` span: tools calling out over HTTP send its trace context. */
  trace?: TraceSpan;
}

/** One registry for built-in, HTTP and MCP tools. */
export interface ToolRegistry {
  /** Every tool, sorted by name. */
  list(): ToolDefinition[];
  /** The tools an agent's `tools` list names (`<prefix>__*` expands to all tools of that MCP server). */
  forAgent(names: string[]): ToolDefinition[];
  get(name: string): ToolDefinition | undefined;
  /** The tool is marked idempotent (config `idempotent`): a takeover may run a call of it again. False for unknown tools. */
  isIdempotent(name: string): boolean;
  /**
   * Validates the arguments against the tool's schema and runs it within its timeout. Returns the
   * result as text for the model. Throws ToolExecutionError (never anything else) on any failure.
   */
  execute(name: string, args: unknown, options?: ToolExecutionOptions): Promise<string>;
  /** The state of each configured MCP server (connected, reconnecting, ...). */
  mcpServers(): McpServerStatus[];
  /** Disconnects MCP servers. */
  close(): Promise<void>;
}

/** A tool failure; the runtime hands its message to the model instead of failing the run. */
export class ToolExecutionError extends Error {
  constructor(
    message: string,
    readonly code: ToolErrorCode,
  ) {
    super(message);
    this.name = 'ToolExecutionError';
  }
}

export type McpServerState = 'connecting' | 'connected' | 'reconnecting' | 'closed';

/** What `GET /api/v1/tools/mcp/servers` shows of one server. */
export interface McpServerStatus {
  prefix: string;
  transport: 'stdio' | 'http';
  state: McpServerState;
  tools: number;
  connected_at: string | null;
  /** Why the last connection ended or the last attempt failed; never the URL (it may hold a credential). */
  last_error: string | null;
  reconnect_attempts: number;
  next_attempt_at: string | null;
}
