import type { TraceSpan } from '../../telemetry/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CancelledNotificationSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { AgentRegistry, RunService } from '../../agents/index.js';
import type { Principal } from '../../auth/index.js';
import type { Logger } from '../../logger.js';
import { agentToolArguments, mapAgentToTool, reachableAgents } from './agent-tools.js';
import { callAgentTool } from './call-agent-tool.js';
import type { McpCalls } from './mcp-calls.js';
import { pageOf } from './tool-pages.js';

export interface AgentToolServerSettings {
  agents: AgentRegistry;
  runs: RunService;
  calls: McpCalls;
  version: string;
  /** One validator for every request's server (the SDK would build an Ajv instance per server otherwise). */
  validator: jsonSchemaValidator;
}

export interface AgentToolRequest {
  principal: Principal;
  parentSpan?: TraceSpan;
  log: Pick<Logger, 'error'>;
}

/**
 * The MCP server one HTTP request is answered by: it holds nothing between requests (no session), so any
 * replica answers any request. Its tools are the agents the request's principal may call.
 */
export function createAgentToolServer(settings: AgentToolServerSettings, request: AgentToolRequest): Server {
  const { agents, runs, calls } = settings;
  const { principal } = request;
  const server = new Server(
    { name: 'agent-gateway', title: 'Agent Gateway', version: settings.version },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: 'Each tool is an agent: send it a message, and its session_id to continue a conversation.',
      jsonSchemaValidator: settings.validator,
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, (list) => {
    const { items, nextCursor } = pageOf(reachableAgents(agents, principal), list.params?.cursor);
    return { tools: items.map(mapAgentToTool), ...(nextCursor !== undefined && { nextCursor }) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (call, extra): Promise<CallToolResult> => {
    const agent = reachableAgents(agents, principal).find((candidate) => candidate.name === call.params.name);
    if (!agent) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${call.params.name}`);
    const parsed = agentToolArguments.safeParse(call.params.arguments ?? {});
    // A bad argument is a tool error the calling model can read and correct (MCP 2025-11-25, tools: error handling).
    if (!parsed.success) return invalidArguments(parsed.error.issues);
    const progressToken = call.params._meta?.progressToken;
    try {
      return await callAgentTool(
        {
          agentName: agent.name,
          arguments: parsed.data,
          principal,
          requestId: extra.requestId,
          progressToken,
          sendProgress: (progress) =>
            extra.sendNotification({
              method: 'notifications/progress',
              params: { progressToken: progressToken!, ...progress },
            }),
          signal: extra.signal,
          parentSpan: request.parentSpan,
        },
        { runs, calls },
      );
    } catch (error) {
      request.log.error({ err: error, tool: agent.name }, 'MCP tool call failed');
      throw new McpError(ErrorCode.InternalError, 'Internal server error');
    }
  });

  // Replaces the SDK's own handler, which only knows the requests of this one server instance.
  server.setNotificationHandler(CancelledNotificationSchema, (notification) => {
    const { requestId } = notification.params;
    if (requestId !== undefined) calls.cancel(principal, requestId);
  });
  return server;
}

function invalidArguments(issues: { path: PropertyKey[]; message: string }[]): CallToolResult {
  const text = issues
    .map((issue) => `arguments${issue.path.map((key) => `.${String(key)}`).join('')}: ${issue.message}`)
    .join('; ');
  return { isError: true, content: [{ type: 'text', text: `invalid_request: ${text}` }] };
}
