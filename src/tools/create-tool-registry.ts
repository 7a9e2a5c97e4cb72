import type { A2aConfig, BuiltinToolConfig, HttpToolConfig, McpToolConfig, ToolsConfig } from '../config/index.js';
import { ConfigError } from '../errors.js';
import type { ToolDefinition } from '../llm/index.js';
import { createArgumentsValidator, type ArgumentsCheck } from './arguments-validator.js';
import { callWithDeadline, toToolError } from './call-with-deadline.js';
import { createCurrentTimeTool } from './current-time.tool.js';
import { createDelegateToAgentTool } from './a2a/delegate-to-agent.tool.js';
import { createHttpRequestTool } from './http/http-request.tool.js';
import { createHttpTool } from './http/http-tool.js';
import { connectMcpServer, type McpConnection } from './mcp/mcp-server.js';
import { SILENT_LOGGER, type RegisteredTool, type ToolsLogger } from './registered-tool.js';
import { ToolExecutionError, type ToolRegistry } from './types.js';

export interface ToolRegistryOptions {
  /** The `tools:` config section. */
  config: ToolsConfig;
  logger?: ToolsLogger;
  /** Sent to MCP servers as our client version. */
  version?: string;
  /** The `a2a:` config section: its remotes make `delegate_to_agent` available. */
  a2a?: A2aConfig;
}

interface Entry {
  tool: RegisteredTool;
  check: ArgumentsCheck;
}

/**
 * Builds the registry: built-ins, HTTP tools from config, then every MCP server connected in parallel.
 * A server that cannot be reached is logged and left out, so one broken server never stops start-up.
 */
export async function createToolRegistry({
  config,
  logger = SILENT_LOGGER,
  version = '0.0.0',
  a2a,
}: ToolRegistryOptions): Promise<ToolRegistry> {
  const validator = createArgumentsValidator();
  const entries = new Map<string, Entry>();
  const builtin = (name: BuiltinToolConfig['builtin']) =>
    config.find((entry): entry is BuiltinToolConfig => 'builtin' in entry && entry.builtin === name);
  const delegate = a2a && createDelegateToAgentTool(a2a);
  const local = [
    createCurrentTimeTool(builtin('get_current_time')),
    createHttpRequestTool(builtin('http_request')),
    ...config.filter((entry): entry is HttpToolConfig => 'url' in entry).map(createHttpTool),
    ...(delegate ? [delegate] : []),
  ];
  for (const tool of local) {
    if (entries.has(tool.definition.name))
      throw new ConfigError(`tools: the tool name "${tool.definition.name}" is used twice`);
    entries.set(tool.definition.name, { tool, check: compileOrThrow(tool) });
  }

  const servers = config.filter((entry): entry is McpToolConfig => 'mcp' in entry);
  const connections = (await Promise.all(servers.map((server) => connectOrSkip(server, logger, version)))).filter(
    (c): c is McpConnection => !!c,
  );
  for (const connection of connections) {
    for (const tool of connection.tools) {
      if (entries.has(tool.definition.name)) {
        logger.warn(
          { mcp: connection.prefix, tool: tool.definition.name },
          'MCP tool skipped: another tool has its name',
        );
        continue;
      }
      entries.set(tool.definition.name, { tool, check: compileOrLenient(tool) });
    }
    logger.info({ mcp: connection.prefix, tools: connection.tools.length }, 'MCP server connected');
  }

  const sorted = (): ToolDefinition[] =>
    [...entries.values()]
      .map((entry) => entry.tool.definition)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  let closed: Promise<void> | undefined;

  return {
    list: sorted,
    forAgent(names) {
      const picked = new Map<string, ToolDefinition>();
      for (const name of names) {
        if (name.endsWith('__*')) {
          const prefix = name.slice(0, -1);
          for (const definition of sorted())
            if (definition.name.startsWith(prefix)) picked.set(definition.name, definition);
        } else {
          const entry = entries.get(name);
          if (entry) picked.set(name, entry.tool.definition);
        }
      }
      return [...picked.values()];
    },
    get: (name) => entries.get(name)?.tool.definition,
    isIdempotent: (name) => entries.get(name)?.tool.idempotent === true,
    async execute(name, args, options) {
      const entry = entries.get(name);
      if (!entry) throw new ToolExecutionError(`Unknown tool "${name}"`, 'unknown_tool');
      let checked: Record<string, unknown>;
      try {
        checked = entry.check(args);
      } catch (error) {
        throw toToolError(name, error);
      }
      return callWithDeadline(entry.tool, checked, options?.signal);
    },
    close() {
      closed ??= Promise.allSettled([
        ...connections.map((connection) => connection.close()),
        ...local.map((tool) => tool.close?.()),
      ]).then(() => undefined);
      return closed;
    },
  };

  function compileOrThrow(tool: RegisteredTool): ArgumentsCheck {
    try {
      return validator.compile(tool.definition.name, tool.definition.parameters);
    } catch (error) {
      throw new ConfigError(
        `tools: the parameters of "${tool.definition.name}" are not a valid JSON schema: ${(error as Error).message}`,
      );
    }
  }

  // The server validates its own arguments too; an odd schema from it should not cost the whole tool.
  function compileOrLenient(tool: RegisteredTool): ArgumentsCheck {
    try {
      return validator.compile(tool.definition.name, tool.definition.parameters);
    } catch (error) {
      logger.warn(
        { tool: tool.definition.name, err: (error as Error).message },
        'MCP tool schema does not compile; only checking that arguments are an object',
      );
      return validator.objectOnly(tool.definition.name);
    }
  }
}

async function connectOrSkip(
  server: McpToolConfig,
  logger: ToolsLogger,
  version: string,
): Promise<McpConnection | undefined> {
  try {
    return await connectMcpServer(server, logger, version);
  } catch (error) {
    // Only the host: a URL may carry a credential in its query.
    const target = 'url' in server.mcp ? new URL(server.mcp.url).host : server.mcp.command;
    logger.warn(
      { mcp: server.prefix, target, err: (error as Error).message },
      'MCP server could not be connected; its tools are unavailable',
    );
    return undefined;
  }
}
