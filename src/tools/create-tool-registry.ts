import type { A2aConfig, BuiltinToolConfig, HttpToolConfig, McpToolConfig, ToolsConfig } from '../config/index.js';
import { ConfigError } from '../errors.js';
import type { ToolDefinition } from '../llm/index.js';
import { createArgumentsValidator, type ArgumentsCheck } from './arguments-validator.js';
import { callWithDeadline, toToolError } from './call-with-deadline.js';
import { createCurrentTimeTool } from './current-time.tool.js';
import { createDelegateToAgentTool } from './a2a/delegate-to-agent.tool.js';
import { createHttpRequestTool } from './http/http-request.tool.js';
import { createHttpTool } from './http/http-tool.js';
import type { McpBackoff, McpServer } from './mcp/mcp-server.js';
import type { RegisteredTool } from './registered-tool.js';
import { ToolExecutionError, type ToolRegistry } from './types.js';
import { SILENT_LOGGER, type Logger } from '../logger.js';

export interface ToolRegistryOptions {
  /** The `tools:` config section. */
  config: ToolsConfig;
  logger?: Logger;
  /** Sent to MCP servers as our client version. */
  version?: string;
  /** The `a2a:` config section: its remotes make `delegate_to_agent` available. */
  a2a?: A2aConfig;
  /** How fast a dead MCP server is retried (tests shorten it). */
  mcpBackoff?: McpBackoff;
}

interface Entry {
  tool: RegisteredTool;
  check: ArgumentsCheck;
}

/**
 * Builds the registry: built-ins, HTTP tools from config, then every MCP server connected in parallel.
 * A server that cannot be reached is logged and retried in the background, so one broken server never
 * stops start-up; its tools appear when it connects and follow its `list_changed` notifications.
 */
export async function createToolRegistry({
  config,
  logger = SILENT_LOGGER,
  version = '0.0.0',
  a2a,
  mcpBackoff,
}: ToolRegistryOptions): Promise<ToolRegistry> {
  const validator = createArgumentsValidator();
  const entries = new Map<string, Entry>();
  const builtin = (name: BuiltinToolConfig['builtin']) =>
    config.find((entry): entry is BuiltinToolConfig => 'builtin' in entry && entry.builtin === name);
  const delegate = a2a && createDelegateToAgentTool(a2a);
  const configuredHttp = config.filter((entry): entry is HttpToolConfig => 'url' in entry).map(createHttpTool);
  const local = [
    createCurrentTimeTool(builtin('get_current_time')),
    createHttpRequestTool(builtin('http_request')),
    ...configuredHttp,
    ...(delegate ? [delegate] : []),
  ];
  for (const tool of local) {
    if (entries.has(tool.definition.name))
      throw new ConfigError(`tools: the tool name "${tool.definition.name}" is used twice`);
    // A configured schema is checked at start, so a bad one stops start-up with its tool's name. The built-ins'
    // schemas are ours: compiling them on first use keeps ajv's meta-schema (about 0.15 s) out of start-up.
    const check = configuredHttp.includes(tool) ? compileOrThrow(tool) : compileOnFirstUse(tool);
    entries.set(tool.definition.name, { tool, check });
  }

  const configured = config.filter((entry): entry is McpToolConfig => 'mcp' in entry);
  // The MCP SDK loads only when a server is configured (start-up time and idle memory).
  const { startMcpServer } = configured.length > 0 ? await import('./mcp/mcp-server.js') : { startMcpServer: null };
  const servers = startMcpServer
    ? await Promise.all(configured.map((server) => startMcpServer(server, logger, version, mcpBackoff)))
    : [];
  // The names each server holds in `entries`, so a new listing replaces exactly its own tools.
  const namesOf = new Map<McpServer, string[]>();
  const syncServer = (server: McpServer) => {
    for (const name of namesOf.get(server) ?? []) entries.delete(name);
    const added: string[] = [];
    for (const tool of server.tools()) {
      if (entries.has(tool.definition.name)) {
        logger.warn({ mcp: server.prefix, tool: tool.definition.name }, 'MCP tool skipped: another tool has its name');
        continue;
      }
      entries.set(tool.definition.name, { tool, check: compileOrLenient(tool) });
      added.push(tool.definition.name);
    }
    namesOf.set(server, added);
  };
  for (const server of servers) {
    syncServer(server);
    server.onToolsChanged(() => syncServer(server));
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
      return callWithDeadline(entry.tool, checked, options?.signal, { runId: options?.runId, trace: options?.trace });
    },
    mcpServers: () => servers.map((server) => server.status()),
    close() {
      closed ??= Promise.allSettled([
        ...servers.map((server) => server.close()),
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

  function compileOnFirstUse(tool: RegisteredTool): ArgumentsCheck {
    let check: ArgumentsCheck | undefined;
    return (args) => (check ??= compileOrThrow(tool))(args);
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
