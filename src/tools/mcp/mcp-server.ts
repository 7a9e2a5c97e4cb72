import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpToolConfig } from '../../config/index.js';
import { mapMcpResult } from './map-mcp-result.js';
import type { RegisteredTool, ToolsLogger } from '../registered-tool.js';

/** A connected MCP server and its tools, named `<prefix>__<tool>`. */
export interface McpConnection {
  prefix: string;
  tools: RegisteredTool[];
  close(): Promise<void>;
}

/** Function names models accept (OpenAI: 1-64 of these characters). */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
// Our deadline must win the race against the SDK's own request timeout, so its error is the one reported.
const SDK_TIMEOUT_MARGIN_MS = 1_000;
// Start-up may install and launch a server (`npx -y ...`); a short per-call timeout must not cut that off.
const MIN_CONNECT_TIMEOUT_MS = 30_000;

/** Connects to one MCP server and lists its tools. Throws when the server cannot be reached; the caller decides. */
export async function connectMcpServer(
  config: McpToolConfig,
  logger: ToolsLogger,
  clientVersion: string,
): Promise<McpConnection> {
  const transport = createTransport(config, logger);
  const client = new Client({ name: 'agent-gateway', version: clientVersion });
  try {
    const timeout = Math.max(config.timeout_ms, MIN_CONNECT_TIMEOUT_MS);
    await client.connect(transport, { timeout });
    const listed = await listAllTools(client, timeout);
    let closing = false;
    client.onclose = () => {
      if (!closing)
        logger.warn({ mcp: config.prefix }, 'MCP server disconnected; its tools fail until the gateway restarts');
    };
    const close = async () => {
      closing = true;
      await client.close();
    };
    return { prefix: config.prefix, tools: mapTools(config, client, listed, logger), close };
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
}

function createTransport(config: McpToolConfig, logger: ToolsLogger): Transport {
  const server = config.mcp;
  if ('url' in server)
    return new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } });
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

function mapTools(config: McpToolConfig, client: Client, listed: Tool[], logger: ToolsLogger): RegisteredTool[] {
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
      async run(args, signal) {
        const result = await client.callTool({ name: tool.name, arguments: args }, undefined, {
          signal,
          timeout: config.timeout_ms + SDK_TIMEOUT_MARGIN_MS,
        });
        return mapMcpResult(name, result);
      },
    });
  }
  return tools;
}
