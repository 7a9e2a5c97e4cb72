import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { slicePage } from '../page-query.js';
import { mapToFunctionTool } from './map-function-tool.js';
import { getVisibleTool, listVisibleTools, type ToolDiscoveryOptions } from './tool-discovery.js';
import { functionTool, listToolsQuery, mcpServerStatus, toolNameParams } from './tools.schema.js';

export type ToolsRoutesOptions = ToolDiscoveryOptions;

/** Tool discovery (spec 4.6). Operators see every tool; an access token with scope `tools` sees its agent's only. */
export const toolsRoutes: FastifyPluginAsync<ToolsRoutesOptions> = async (app, options) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['tools'];
  const tokenAgent = (request: FastifyRequest) =>
    request.principal?.kind === 'access_token' ? request.principal.agentName : undefined;

  routes.get(
    '/api/v1/tools',
    {
      schema: {
        tags,
        summary: 'List tools in function-calling format',
        querystring: listToolsQuery,
        response: { 200: z.array(functionTool) },
      },
      // Naming the agent lets the auth hook refuse a token bound to another agent before it is spent.
      config: { auth: { scope: 'tools', agent: (request) => (request.query as { agent_name?: string }).agent_name } },
    },
    (request) =>
      slicePage(
        listVisibleTools(options, { agentName: request.query.agent_name, tokenAgent: tokenAgent(request) }),
        request.query,
      ).map(mapToFunctionTool),
  );

  // Two segments after /tools/, so no tool name can shadow it; operators only, as it shows configuration.
  routes.get(
    '/api/v1/tools/mcp/servers',
    {
      schema: {
        tags,
        summary: 'Show each MCP server and the state of its connection',
        response: { 200: z.array(mcpServerStatus) },
      },
      config: { auth: 'operator' },
    },
    () => options.registry.mcpServers(),
  );

  routes.get(
    '/api/v1/tools/:name',
    {
      schema: {
        tags,
        summary: 'Show one tool in function-calling format',
        params: toolNameParams,
        response: { 200: functionTool },
      },
      config: { auth: { scope: 'tools' } },
    },
    (request) => mapToFunctionTool(getVisibleTool(options, request.params.name, tokenAgent(request))),
  );
};
