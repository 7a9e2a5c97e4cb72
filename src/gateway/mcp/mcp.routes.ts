import { requestSpan } from '../../telemetry/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AgentRegistry, RunService } from '../../agents/index.js';
import { AuthenticationError } from '../../errors.js';
import { createAgentToolServer } from './agent-tool-server.js';
import { isToolCall, toolCallAgentOf } from './mcp-body.js';
import { createMcpCalls } from './mcp-calls.js';

export interface McpRoutesOptions {
  agents: AgentRegistry;
  runs: RunService;
  /** The gateway's version, the MCP server's `serverInfo.version`. */
  version: string;
}

/**
 * POST /mcp: the agents as MCP tools over Streamable HTTP, stateless: every request gets a server and a
 * transport of its own, and nothing of it is kept, so any replica answers any request (no Mcp-Session-Id).
 * GET (a stream for server-initiated messages) and DELETE (ending a session) are not offered: 405.
 */
export const mcpRoutes: FastifyPluginAsync<McpRoutesOptions> = async (app, { agents, runs, version }) => {
  const settings = { agents, runs, version, calls: createMcpCalls(), validator: new AjvJsonSchemaValidator() };
  app.withTypeProvider<ZodTypeProvider>().post(
    '/mcp',
    {
      config: {
        auth: {
          scope: 'mcp',
          agent: (request) => toolCallAgentOf(request.body),
          // Only a tools/call runs an agent: it alone takes a token's use and counts on the rate limits, so a
          // single-use token survives the initialize and tools/list that come before it.
          perRun: (request) => !isToolCall(request.body),
        },
      },
      schema: {
        tags: ['mcp'],
        summary: 'MCP over Streamable HTTP (stateless): each agent the caller may reach is a tool',
        body: z.unknown().describe('A JSON-RPC 2.0 message of MCP (initialize, tools/list, tools/call, ...)'),
      },
    },
    async (request, reply) => {
      if (!request.principal) throw new AuthenticationError();
      const server = createAgentToolServer(settings, {
        principal: request.principal,
        parentSpan: requestSpan(request),
        log: request.log,
      });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      // Closing the transport aborts a call still under way: its run is cancelled, as when a stream is left.
      reply.raw.on('close', () => void server.close());
      await server.connect(transport);
      reply.hijack();
      for (const [name, value] of Object.entries(reply.getHeaders()))
        if (value !== undefined) reply.raw.setHeader(name, value);
      await transport.handleRequest(request.raw, reply.raw, request.body);
      return reply;
    },
  );
};
