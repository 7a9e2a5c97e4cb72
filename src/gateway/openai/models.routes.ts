import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AgentRegistry, RegisteredAgent } from '../../agents/index.js';
import { modelList, modelObject, modelParams, type ModelObject } from './models.schema.js';
import { modelNotFound } from './openai-errors.js';

/** GET /v1/models: agents listed as OpenAI models. An access token sees only its own agent. */
export const modelsRoutes: FastifyPluginAsync<{ agents: AgentRegistry }> = async (app, { agents }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tokenAgent = (request: FastifyRequest) =>
    request.principal?.kind === 'access_token' ? request.principal.agentName : undefined;

  routes.get(
    '/v1/models',
    {
      config: { auth: { scope: 'chat', agent: tokenAgent } },
      schema: { tags: ['openai'], summary: 'List agents as models (OpenAI-compatible)', response: { 200: modelList } },
    },
    (request) => {
      const only = tokenAgent(request);
      const visible = agents.list().filter((agent) => only === undefined || agent.name === only);
      return { object: 'list' as const, data: visible.map(mapAgentToModel) };
    },
  );

  routes.get(
    '/v1/models/:model',
    {
      config: { auth: { scope: 'chat', agent: (request) => (request.params as { model: string }).model } },
      schema: {
        tags: ['openai'],
        summary: 'One agent as a model (OpenAI-compatible)',
        params: modelParams,
        response: { 200: modelObject },
      },
    },
    (request) => {
      const agent = agents.find(request.params.model);
      if (!agent) throw modelNotFound(request.params.model);
      return mapAgentToModel(agent);
    },
  );
};

function mapAgentToModel(agent: RegisteredAgent): ModelObject {
  return {
    id: agent.name,
    object: 'model',
    created: Math.floor(Date.parse(agent.registered_at) / 1000),
    owned_by: 'agent-gateway',
  };
}
