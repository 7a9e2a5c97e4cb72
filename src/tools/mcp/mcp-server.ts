import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { spanTraceparent, type TraceSpan } from '../../telemetry/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { backoffDelay } from '../../backoff.js';
import type { McpToolConfig } from '../../config/index.js';
import { ToolExecutionError, type McpServerState, type McpServerStatus } from '../types.js';
import { mapMcpResult } from './map-mcp-result.js';
import type { RegisteredTool } from '../registered-tool.js';
import type { Logger } from '../../logger.js';

/** One MCP server kept connected: reconnected with backoff when it dies, its tools re-listed when they change. */
export interface McpServer {
  readonly prefix: string;
  /** The tools of the last successful listing (kept while reconnecting, so the model sees a clear error). */
  tools(): RegisteredTool[];
  status(): McpServerStatus;
  /** Called after each listing that changed the tools: a connect, a reconnect or a `list_changed`. */
  onToolsChanged(listener: () => void): void;
  close(): Promise<void>;
}

export interface McpBackoff {
  initialMs: number;
  maxMs: number;
}

/** Function names models accept (OpenAI: 1-64 of these characters). */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
// Our deadline must win the race against the SDK's own request timeout, so its error is the one reported.
const SDK_TIMEOUT_MARGIN_MS = 1_000;
// Start-up may install and launch a server (`npx -y ...`); a short per-call timeout must not cut that off.
const MIN_CONNECT_TIMEOUT_MS = 30_000;
const DEFAULT_BACKOFF: McpBackoff = { initialMs: 500, maxMs: 30_000 };

/**
 * Connects to one MCP server and keeps it connected. The first attempt is awaited so start-up sees the
 * tools of every reachable server; a server that is down is retried in the background, never thrown.
 */
export async function startMcpServer(
  config: McpToolConfig,
  logger: Logger,
  clientVersion: string,
  backoff: McpBackoff = DEFAULT_BACKOFF,
): Promise<McpServer> {
  const prefix = config.prefix;
  const transportKind = 'url' in config.mcp ? 'http' : 'stdio';
  const connectTimeout = Math.max(config.timeout_ms, MIN_CONNECT_TIMEOUT_MS);
  const listeners: Array<() => void> = [];
  let state: McpServerState = 'connecting';
  let client: Client | undefined;
  let tools: RegisteredTool[] = [];
  let connectedAt: string | null = null;
  let lastError: string | null = null;
  let attempts = 0;
  let nextAttemptAt: string | null = null;
  let retryTimer: NodeJS.Timeout | undefined;

  const setTools = (listed: Tool[]) => {
    tools = mapTools(config, listed, logger, callTool);
    for (const listener of listeners) listener();
  };

  async function connect(): Promise<void> {
    const next = new Client(
      { name: 'agent-gateway', version: clientVersion },
      {
        listChanged: {
          tools: {
            autoRefresh: false,
            onChanged: () => {
              if (client === next) void refresh(next);
            },
          },
        },
      },
    );
    try {
      await next.connect(createTransport(config, logger), { timeout: connectTimeout });
      const listed = await listAllTools(next, connectTimeout);
      if (state === 'closed') {
        await next.close();
        return;
      }
      next.onclose = () => {
        if (client === next) lost('the connection closed');
      };
      client = next;
      state = 'connected';
      connectedAt = new Date().toISOString();
      lastError = null;
      attempts = 0;
      nextAttemptAt = null;
      setTools(listed);
      logger.info({ mcp: prefix, tools: tools.length }, 'MCP server connected');
    } catch (error) {
      await next.close().catch(() => undefined);
      failed(error);
    }
  }

  async function refresh(current: Client): Promise<void> {
    try {
      const listed = await listAllTools(current, connectTimeout);
      if (client !== current) return;
      setTools(listed);
      logger.info({ mcp: prefix, tools: tools.length }, 'MCP server changed its tools; list refreshed');
    } catch (error) {
      logger.warn({ mcp: prefix, err: describe(error) }, 'MCP tool list could not be refreshed');
    }
  }

  /** The connection broke after it was up: drop it and reconnect. */
  function lost(reason: string): void {
    if (state === 'closed' || state === 'reconnecting') return;
    const dead = client;
    client = undefined;
    lastError = reason;
    state = 'reconnecting';
    logger.warn({ mcp: prefix, err: reason }, 'MCP server disconnected; its tools fail until it reconnects');
    if (dead) void dead.close().catch(() => undefined);
    schedule();
  }

  function failed(error: unknown): void {
    if (state === 'closed') return;
    lastError = describe(error);
    state = 'reconnecting';
    // Only the host: a URL may carry a credential in its query.
    const target = 'url' in config.mcp ? new URL(config.mcp.url).host : config.mcp.command;
    logger.warn(
      { mcp: prefix, target, err: lastError, attempt: attempts + 1 },
      'MCP server could not be connected; retrying with backoff',
    );
    schedule();
  }

  function schedule(): void {
    const delay = backoffDelay(attempts + 1, { initial: backoff.initialMs, max: backoff.maxMs });
    attempts += 1;
    nextAttemptAt = new Date(Date.now() + delay).toISOString();
    retryTimer = setTimeout(() => void connect(), delay);
    // A server that stays down must not keep the process alive.
    retryTimer.unref();
  }

  async function callTool(
    tool: Tool,
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    trace?: TraceSpan,
  ) {
    const current = client;
    if (state !== 'connected' || !current)
      throw new ToolExecutionError(
        `Tool "${name}" is unavailable: its MCP server "${prefix}" is ${state}; try again later`,
        'unavailable',
      );
    try {
      // The trace context rides in the request's `_meta` (MCP's place for it); over HTTP the transport's fetch
      // also sends it as a header (the fetch is the connection's, so it can only learn it from the body).
      const traceparent = spanTraceparent(trace);
      const params = { name: tool.name, arguments: args, ...(traceparent && { _meta: { traceparent } }) };
      const result = await current.callTool(params, undefined, {
        signal,
        timeout: config.timeout_ms + SDK_TIMEOUT_MARGIN_MS,
      });
      return mapMcpResult(name, result);
    } catch (error) {
      if (signal.aborted || !isConnectionFailure(error, transportKind)) throw error;
      if (client === current) lost(describe(error));
      throw new ToolExecutionError(
        `Tool "${name}" is unavailable: its MCP server "${prefix}" disconnected during the call; try again later`,
        'unavailable',
      );
    }
  }

  await connect();

  return {
    prefix,
    tools: () => tools,
    status: () => ({
      prefix,
      transport: transportKind,
      state,
      tools: tools.length,
      connected_at: connectedAt,
      last_error: lastError,
      reconnect_attempts: attempts,
      next_attempt_at: state === 'reconnecting' ? nextAttemptAt : null,
    }),
    onToolsChanged: (listener) => void listeners.push(listener),
    async close() {
      state = 'closed';
      clearTimeout(retryTimer);
      const current = client;
      client = undefined;
      await current?.close();
    },
  };
}

/**
 * A broken transport (the process died, the host is gone), as opposed to the server answering an error.
 * Over HTTP each call is its own request, so a failed fetch is how a dead server shows.
 */
function isConnectionFailure(error: unknown, transport: 'stdio' | 'http'): boolean {
  if (error instanceof McpError) return error.code === (ErrorCode.ConnectionClosed as number);
  return transport === 'http' && !(error instanceof ToolExecutionError);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function createTransport(config: McpToolConfig, logger: Logger): Transport {
  const server = config.mcp;
  if ('url' in server)
    return new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: server.headers },
      fetch: sendTraceparentHeader,
    });
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args,
    env: server.env,
    stderr: 'pipe',
  });
  // The server's stderr is its log: keep it, attributed, in ours.
  transport.stderr?.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8').trimEnd();
    if (text) logger.info({ mcp: config.prefix, stderr: text }, 'MCP server stderr');
  });
  return transport;
}

async function listAllTools(client: Client, timeout: number): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, { timeout });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

type CallTool = (
  tool: Tool,
  name: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
  trace?: TraceSpan,
) => Promise<string>;

function mapTools(config: McpToolConfig, listed: Tool[], logger: Logger, call: CallTool): RegisteredTool[] {
  const tools: RegisteredTool[] = [];
  for (const tool of listed) {
    // Models accept only [A-Za-z0-9_-] in function names; the server still gets its own name.
    const name = `${config.prefix}__${tool.name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
    if (!TOOL_NAME.test(name) || tools.some((known) => known.definition.name === name)) {
      logger.warn(
        { mcp: config.prefix, tool: tool.name },
        'MCP tool skipped: its name is too long or clashes with another after mapping',
      );
      continue;
    }
    tools.push({
      definition: {
        name,
        description: tool.description ?? tool.title ?? '',
        parameters: { ...tool.inputSchema, type: 'object' },
      },
      timeoutMs: config.timeout_ms,
      idempotent: config.idempotent,
      run: (args, signal, context) => call(tool, name, args, signal, context?.trace),
    });
  }
  return tools;
}

const BODY_TRACEPARENT = /"traceparent":"(00-[\da-f]{32}-[\da-f]{16}-[\da-f]{2})"/;

/** Copies a tool call's `_meta.traceparent` to the `traceparent` header, so an HTTP server's own tracing sees it. */
const sendTraceparentHeader: typeof fetch = (input, init) => {
  const traceparent = typeof init?.body === 'string' ? BODY_TRACEPARENT.exec(init.body)?.[1] : undefined;
  if (!traceparent) return fetch(input, init);
  const headers = new Headers(init?.headers);
  headers.set('traceparent', traceparent);
  return fetch(input, { ...init, headers });
};
